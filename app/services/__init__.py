"""Use cases. Each function owns its transaction; web handlers only call them."""
