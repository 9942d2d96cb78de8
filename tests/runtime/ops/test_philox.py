"""runtime.ops.philox against the Philox4x32-10 known-answer vectors published with Random123
(Salmon et al., SC 2011): key and counter as TF lays them out from its two 64-bit seeds."""

from runtime.ops.philox import Philox


def _block(key, counter):
    p = Philox(key[0] | key[1] << 32, counter[2] | counter[3] << 32)
    p._low = counter[0] | counter[1] << 32
    return [p() for _ in range(4)]


def test_known_answers():
    assert _block((0, 0), (0, 0, 0, 0)) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert _block((0xFFFFFFFF,) * 2, (0xFFFFFFFF,) * 4) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert _block((0xA4093822, 0x299F31D0), (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)) == \
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


def test_words_continue_across_blocks_and_chunks():
    """Draw i of a stream equals word i % 4 of block i // 4, however the blocks are computed."""
    p = Philox(7, 9)
    words = [p() for _ in range(4 * 300)]
    for b in (0, 1, 255, 256, 299):
        q = Philox(7, 9)
        q._low = b
        assert [q() for _ in range(4)] == words[4 * b:4 * b + 4]
