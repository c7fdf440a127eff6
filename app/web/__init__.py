"""Transport: FastAPI routers for pages, the JSON API and websockets. Thin:
parse, call a service, render."""
