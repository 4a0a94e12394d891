"""The lumped pair of Eq. (7) built from a gear pair of a GearDyn model."""

from __future__ import annotations

import math

import numpy as np

from core.chbm.lumped_model import LumpedModel, mesh_pair_model, pair_model
from core.chbm.train_from_model import pair_mesh, train_from_model
from core.geometry.macro import pair_geometry
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import equivalent_mass, mesh_in_model, mesh_levers, mesh_model_for
from core.model.entities import GROUND, BearingSpringDamper
from core.errors import ModelError
from core.model.model import Model
from core.model.views import ChbmStudy
from core.ranges import microns
from core.validation import validate

# ISO 6336-1:2019, 9.3: theoretical single-pair stiffness of solid steel spur
# gears of standard basic rack, c'_th about 14 N/(mm um) per mm of face width
# (14e9 N/m per m); the mesh stiffness follows the single-pair value times
# the number of pairs in contact, as the step-gap model does.
SINGLE_PAIR_STIFFNESS_PER_WIDTH = 14e9  # N/m per m of face width
DEFAULT_DAMPING_RATIO = 0.07  # of the mean mesh stiffness and the equivalent mass


CONTACT_MODELS = ("mesh", "step_gap")


def lumped_from_model(model: Model, pair_name: str, torque: float, contact_stiffness: float | None = None,
                      damping: float | None = None, contact: str = "mesh") -> LumpedModel:
    """Lumped pair from `pair_name` (any kind: external, internal or bevel): inertias from the bodies, the levers
    (core.gearing.mesh_model.mesh_levers) and contact from the pair.

    Parameters
    ----------
    torque : float
        Torque on gear 1 [N m].
    contact : {'mesh', 'step_gap'}
        'mesh' (default): the same mesh model the multibody solver uses
        (core.gearing.mesh_model): the pair's CompliantMesh if the model has
        one, else its defaults (ISO 6336-1 stiffness with the involute
        waveform, 7 % of critical damping). 'step_gap': the paper's contact
        elements (Saletti et al. 2025), single-pair stiffness `contact_stiffness`
        or 14 N/(mm um) per mm of face width.
    contact_stiffness : float, optional
        Single tooth-pair stiffness [N/m] of the step-gap contact (implies 'step_gap').
    damping : float, optional
        Mesh damping C [N s/m] (step-gap); 7 % of critical for the mean stiffness when omitted.
    """
    pair = model.gear_pairs.get(pair_name)
    if pair is None:
        raise ModelError(f"--pair: the model has no gear pair {pair_name!r} (pairs: {', '.join(model.gear_pairs) or 'none'})")
    if contact not in CONTACT_MODELS:
        raise ModelError(f"--contact: must be one of {', '.join(CONTACT_MODELS)}, got {contact!r}")
    if contact_stiffness is not None:
        contact = "step_gap"
    errors = validate(model, errors_only=True)  # the model checks a run makes
    if errors:
        raise ModelError(f"--model: {errors[0]}")
    geo = pair_geometry(pair.pair_spec())
    i1, i2 = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
    r1, r2 = mesh_levers(pair)  # the base radii; a bevel pair's mean cone r_m cos(alpha)
    description = f"{model.name}: {pair_name}, T = {torque:g} N m"
    # a pair on a moving carrier (a planet's) is studied on still centres: said, as the train study holds them
    train = "the train study, Analysis > Train Dynamics or geardyn train-chbm, takes"
    still = (f"{pair_name} turns on the carrier {pair.carrier!r}: the lumped pair holds its centres still ({train} "
             "the set with its carrier)",) if pair.carrier != GROUND else ()
    # so does a pair whose gear rides on a bearing: the bearing's springs take no part in it
    gears = [model.joints[j].body_j for j in (pair.joint1, pair.joint2)]
    still += tuple(f"{f.name} carries {body}: the lumped pair holds its centres still and leaves the bearing's "
                   f"springs out ({train} them)" for f in model.forces.values() if isinstance(f, BearingSpringDamper)
                   for body in gears if body in (f.body_i, f.body_j))
    if contact == "mesh":
        mesh, own = pair_mesh(model, pair)
        law = mesh_model_for(pair, mesh, i1, i2)
        notes = (f"mesh model of {'the compliant mesh ' + repr(mesh.name) if own else 'the defaults'}: {law.source}; "
                 f"{mesh.waveform} waveform (eps_alpha {geo.transverse_contact_ratio:.4g}, eps_beta "
                 f"{geo.overlap_ratio:.4g}); damping {law.damping:.4g} N s/m; backlash {microns(law.backlash)}",)
        return mesh_pair_model(i1, i2, r1, r2, torque, law, description=description, notes=notes + still)
    cr = geo.transverse_contact_ratio
    if not 1.0 < cr < 2.0:
        raise ModelError(f"{pair_name}: transverse contact ratio {cr:.4g} is outside (1, 2) where the step-gap model holds")
    notes = list(still)
    if contact_stiffness is None:
        if pair.face_width <= 0:
            raise ModelError(f"{pair_name}.face_width: is 0; give --contact-stiffness or the pair a face width")
        contact_stiffness = SINGLE_PAIR_STIFFNESS_PER_WIDTH * pair.face_width
        notes.append(f"contact stiffness {contact_stiffness:.4g} N/m per tooth pair from ISO 6336-1 c' = 14 N/(mm um) "
                     f"times b = {pair.face_width * 1e3:g} mm")
    if pair.helix_angle:
        notes.append("helical pair treated as spur with its transverse contact ratio (the step-gap model has no overlap)")
    if damping is None:
        m_eq = equivalent_mass(i1, i2, r1, r2)
        damping = 2 * DEFAULT_DAMPING_RATIO * math.sqrt(cr * contact_stiffness * m_eq)
        notes.append(f"damping {damping:.4g} N s/m = {DEFAULT_DAMPING_RATIO:.0%} of critical for the mean mesh stiffness")
    return pair_model(i1, i2, r1, r2, damping, torque, cr, contact_stiffness, description=description,
                      notes=tuple(notes))


def study_defaults(model: Model, pair_name: str) -> tuple[tuple[float, ...] | None, float, float, str]:
    """Torques [N m] and a mesh-frequency range [Hz] that suit a model pair's study, and where they come from.

    The torques are half, once and twice the pair's static torque on gear 1 under the model's mean loads
    (`static_torque`, to three digits; None, with the reason, where the model's train cannot be built or loads
    no pair); the range 0.2 to 1.5 times the pair's mesh mode on fixed centres, which holds
    the superharmonic resonances at a half and a third of it and the main one (the paper's range where the pair
    has no mesh mode).
    """
    mesh = pair_mesh(model, model.gear_pairs[pair_name], stiffness=False)[0]
    f_n = mesh_in_model(model, mesh)[1]
    if f_n > 0:
        f_min, f_max = float(f"{0.2 * f_n:.2g}"), float(f"{1.5 * f_n:.2g}")
        note = f"range 0.2 to 1.5 times the mesh mode {f_n:.4g} Hz"
    else:  # no stiffness (a face width of 0) or no inertia: the paper's range
        f_min, f_max, note = ChbmStudy.f_min, ChbmStudy.f_max, "the paper's range: the pair has no mesh mode"
    exact, why = static_torque(model, pair_name)
    if exact is None:
        return None, f_min, f_max, f"{note}; torques not from the model ({why})"
    torque = float(f"{exact:.3g}")
    return ((torque / 2, torque, 2 * torque), f_min, f_max,
            f"{note}; torques about the {torque:g} N m on gear 1 under the model's mean loads")


def static_torque(model: Model, pair_name: str) -> tuple[float | None, str]:
    """The torque [N m] the pair's mesh passes to its gear 1 under the model's mean loads (the gear train's static
    solution at the mean mesh stiffness, core.chbm.train_from_model), and where it comes from; (None, why) where
    the model's train cannot be built or its mean loads leave the pair unloaded."""
    try:
        train = train_from_model(model)
    except ModelError as exc:
        return None, str(exc)
    forces = train.static_flank_forces().reshape(-1, 2)
    k = next(i for i, m in enumerate(train.meshes) if m.name == pair_name)
    torque = float(np.abs(forces[k]).max()) * mesh_levers(model.gear_pairs[pair_name])[0]
    if torque <= 0:
        return None, f"its mean loads leave {pair_name} unloaded"
    return torque, "the gear train's static solution under the model's mean loads"
