"""Routing models for the deadlock checker: indexed network, next-hop tables, forwarding."""
