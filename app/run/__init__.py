"""Runs in the GUI: the worker thread, the run controller, the playback clock and bar, animation and video."""
