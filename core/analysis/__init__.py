"""What an engineer reads out of a model and its results: spectra with gear-mesh orders, order maps, derived
channels, the gear train's speed ratios."""
