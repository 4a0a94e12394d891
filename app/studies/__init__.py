"""The Parameter Study window: a study of the open model on dask, from the GUI."""
