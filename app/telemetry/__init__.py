"""The Telemetry window: channel browser, stacked plots with a playhead and A/B cursors, statistics, spectra
with gear-mesh orders, derived channels, exports."""
