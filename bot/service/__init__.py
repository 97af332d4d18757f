"""The session service, in parts: see bot/sessions.py for the whole."""
