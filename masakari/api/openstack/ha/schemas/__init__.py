"""Request-body JSON schemas, one module per resource (01 §9)."""
