"""The REST API of masakari-api: paste glue, routing, handlers, schemas."""
