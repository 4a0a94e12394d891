"""Parameter studies: a base model, a grid or list of parameter values, an analysis reduced to scalars, run on dask."""
