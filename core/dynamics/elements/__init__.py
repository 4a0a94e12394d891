"""The built-in element kinds, one module each; importing the package registers them (core.dynamics.elements.base).

The registry's order is the kinds' index in the kernels' buffers.
"""

from core.dynamics.elements import (  # noqa: F401
                                  bearing,
                                  compliant_mesh,
                                  fixed_joint,
                                  gear_pair,
                                  lossy_gear_pair,
                                  revolute_joint,
                                  speed_motor,
                                  spring_damper,
                                  torque,
                                  torsional_spring_damper,
)
