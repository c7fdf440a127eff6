"""Persistence: SQLAlchemy models and the few queries the services need."""
