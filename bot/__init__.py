"""Pantheon's Discord front end, session service and store."""
