"""Time integrators in the shape of scipy.integrate.OdeSolver (the contract: core.dynamics.integrators.base).

METHODS maps the names used in model files and on the command line to the classes:

- ``rk4``: classical fourth-order Runge-Kutta in Munthe-Kaas form (fixed step).
- ``dopri5``, ``dop853``: Dormand-Prince 5(4) and 8(5,3), adaptive step from rtol/atol.
- ``generalized_alpha``: the first-order generalised-alpha method with spectral radius rho_inf at infinity;
  implicit, second order, A-stable, damps the unresolved high frequencies of stiff compliant meshes.
- ``generalized_alpha_adaptive``: the same with its step size controlled.
"""

from __future__ import annotations

from core.dynamics.integrators.base import DenseOutput, IntegrationError, Integrator
from core.dynamics.integrators.explicit import RK4, DormandPrince, DormandPrince853
from core.dynamics.integrators.implicit import (AdaptiveGeneralizedAlpha, GeneralizedAlpha)

__all__ = ["METHODS", "make_integrator", "DenseOutput", "IntegrationError", "Integrator"]

METHODS = {cls.name: cls for cls in (RK4, DormandPrince, DormandPrince853, GeneralizedAlpha, AdaptiveGeneralizedAlpha)}


def make_integrator(name: str, *args, **kw) -> Integrator:
    """An integrator by its METHODS name; unknown names raise ValueError listing the choices."""
    try:
        cls = METHODS[name]
    except KeyError:
        raise ValueError(f"integrator: must be one of {', '.join(METHODS)}, got {name!r}") from None
    return cls(*args, **kw)
