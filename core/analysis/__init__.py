"""What an engineer reads out of results: spectra with gear-mesh orders, order maps, derived channels."""
