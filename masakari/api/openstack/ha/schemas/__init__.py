"""Request-body JSON schemas, one module per resource."""
