"""Engineering checks of a model (core.validation.checker): what `validate` finds, item by item."""

from core.validation.checker import SEVERITIES, Finding, mass_remark, validate
from core.validation.loops import closing_pairs

__all__ = ["Finding", "SEVERITIES", "closing_pairs", "mass_remark", "validate"]
