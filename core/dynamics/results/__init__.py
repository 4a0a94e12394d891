"""Simulation results that describe themselves (channels with units, body poses, the model and settings that
made them), and their file."""

from core.dynamics.results.channels import GROUPS, TOOTH_FORCES, Channel
from core.dynamics.results.results import Results
from core.dynamics.results.results_file import SUFFIX, open_results, save_results

__all__ = ["GROUPS", "TOOTH_FORCES", "Channel", "Results", "SUFFIX", "open_results", "save_results"]
