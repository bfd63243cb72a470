"""The timeline: segments, summaries with grips, the table of contents, conversation summaries."""
