"""feytable: a self-hosted server for fantasy card games played with friends."""
