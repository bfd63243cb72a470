"""Coding agents' hooks: capture of their sessions as events, and memory injected back."""
