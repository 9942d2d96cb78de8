"""Objects made in the differentiated function: instances of user classes, records."""
