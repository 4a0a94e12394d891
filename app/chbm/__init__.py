"""The CHBM study window: harmonic-balance forced response of a gear pair from the GUI."""
