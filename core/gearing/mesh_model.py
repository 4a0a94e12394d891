"""One compliant gear-mesh model for the multibody solver and the harmonic balance (CHBM) solver.

The mesh is a spring-damper along the transverse line of action between the
base circles. Its deflection is delta = (r_b1 theta1 + r_b2 theta2 relative
to rigid rolling) = e cos(alpha_wt), with e the transmission error at the
working pitch circle [m]; positive delta loads the drive flanks.

    F = k(phi) (delta - j/2)   delta >  j/2   (drive flank)
    F = k(phi) (delta + j/2)   delta < -j/2   (coast flank, F < 0)
    F = 0                      otherwise      (contact lost)
    plus c delta' while a flank is in contact (none across the backlash gap)

with j the total backlash along the line of action [m] and phi the mesh
phase (z1 turns of gear 1 relative to the carrier make one mesh period each,
so the mesh frequency follows the rotation). The tangential tooth force is
Ft = F cos(alpha_wt). k(phi) is k_mean times a waveform of mean 1: from the
involute geometry (core.gearing.mesh_stiffness), a cosine, the rectangular
single/double contact wave, or the paper's step-gap elements (CHBM only).
The damping is a ratio zeta of critical for k_mean and the pair's equivalent
mass m = I1 I2 / (I1 r_b2^2 + I2 r_b1^2): c = 2 zeta sqrt(k_mean m); or a constant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from core.gearing.mesh_stiffness import (
    WAVEFORM_SAMPLES,
    IsoMeshStiffness,
    fractional,
    involute_waveform,
    iso6336_stiffness,
    periodic_interp,
    periodic_value,
    waveform_table,
)
from core.gearing.gear_bodies import polar_inertia
from core.gearing.pitch_point import bevel_mean_radius
from core.geometry.macro import pair_geometry

WAVEFORMS = ("involute", "cosine", "rectangular")


@dataclass(frozen=True)
class MeshModel:
    """A compliant mesh along the line of action (SI).

    Attributes
    ----------
    k_mean : float
        Mean mesh stiffness [N/m].
    profile : ndarray
        Stiffness over one mesh period relative to k_mean (WAVEFORM_SAMPLES samples, mean 1).
    damping : float
        Viscous damping on delta' [N s/m].
    backlash : float
        Total backlash along the line of action [m].
    pressure_angle : float
        Working transverse pressure angle alpha_wt [rad]: delta = e cos(alpha_wt), Ft = F cos(alpha_wt).
    source : str
        Where the stiffness came from, in words (for the user).
    cosine : float or None
        For the cosine waveform its relative amplitude: k = k_mean (1 + a cos(phi)) evaluated exactly
        rather than from the samples.
    """

    k_mean: float
    profile: np.ndarray
    damping: float
    backlash: float
    pressure_angle: float
    source: str = ""
    cosine: float | None = None

    @cached_property
    def table(self) -> np.ndarray:
        """The profile with its interpolant's slopes at the samples (core.gearing.mesh_stiffness.waveform_table)."""
        return waveform_table(np.asarray(self.profile, float))

    def stiffness(self, fraction) -> tuple[np.ndarray, np.ndarray]:
        """k [N/m] and dk/dphi [N/m per rad of mesh phase] at mesh-period fractions."""
        if isinstance(fraction, float):  # one phase per evaluation of a run: plain floats, no 0-d arrays
            return mesh_stiffness_at(self.k_mean, self.cosine is not None, self.cosine or 0.0, self.table, fraction)
        if self.cosine is not None:
            phi = 2 * math.pi * np.asarray(fraction, float)
            return self.k_mean * (1.0 + self.cosine * np.cos(phi)), -self.k_mean * self.cosine * np.sin(phi)
        k, slope = periodic_interp(self.table, fraction)
        return self.k_mean * k, self.k_mean * slope / (2 * math.pi)

    def force(self, delta: float, rate: float, k: float) -> tuple[float, float]:
        """(F [N] along the line of action, elastic energy [J]) at deflection delta [m], rate [m/s], stiffness k
        [N/m] (from `stiffness` at the mesh phase)."""
        return mesh_force(delta, rate, k, self.damping, self.backlash)

    def penetration(self, delta: float) -> float:
        """The flank penetration [m] at deflection delta [m]: delta less half the backlash, 0 inside it."""
        return penetration(delta, self.backlash)


# A MeshModel's formulas on plain numbers and arrays, so that the compliant mesh's kernel code
# (core.dynamics.elements.compliant_mesh) runs the same formulas, compiled or not.

def mesh_stiffness_at(k_mean: float, is_cosine: bool, cosine: float, table: np.ndarray, fraction: float):
    """k [N/m] and dk/dphi [N/m per rad of mesh phase] at one mesh-period fraction: k_mean (1 + a cos(phi))
    exactly for the cosine waveform, else the periodic interpolant of the profile's `waveform_table`."""
    if is_cosine:
        phi = 2 * math.pi * fraction
        return k_mean * (1.0 + cosine * math.cos(phi)), -k_mean * cosine * math.sin(phi)
    k, slope = periodic_value(table, fraction)
    return k_mean * k, k_mean * slope / (2 * math.pi)


def penetration(delta: float, backlash: float) -> float:
    """The flank penetration [m] at deflection delta [m] with the total backlash [m]."""
    half = 0.5 * backlash
    return delta - half if delta > half else (delta + half if delta < -half else 0.0)


def mesh_force(delta: float, rate: float, k: float, damping: float, backlash: float) -> tuple[float, float]:
    """(F [N] along the line of action, elastic energy [J]) at deflection delta [m], its rate [m/s] and stiffness k
    [N/m]: no force inside the backlash (neither spring nor damper)."""
    return _force_at(penetration(delta, backlash), rate, k, damping, backlash)


def _force_at(pen: float, rate: float, k: float, damping: float, backlash: float) -> tuple[float, float]:
    """mesh_force at the flank penetration pen [m]."""
    if pen == 0.0 and backlash > 0.0:
        return 0.0, 0.0
    return k * pen + damping * rate, 0.5 * k * pen * pen


# mesh_state's values, in order (the compiled kernels pick them by position)
MESH_STATE = ("deflection", "deflection_rate", "stiffness", "stiffness_slope", "force", "energy", "ft", "torque",
              "dissipation")


def mesh_stiffness_in_phase(angle: float, z: float, phase0: float, k_mean: float, is_cosine: bool, cosine: float,
                            table: np.ndarray) -> tuple[float, float]:
    """k [N/m] and dk/dphi at the reference gear's joint angle [rad] since the start: the mesh phase
    z angle / 2 pi + phase0 (core.gearing.mesh_phase) into `mesh_stiffness_at`. Both flanks of a mesh take it."""
    return mesh_stiffness_at(k_mean, is_cosine, cosine, table, fractional(z * angle / (2 * math.pi) + phase0))


def mesh_state(e: float, slip_rate: float, cos: float, z: float, k: float, dk: float, damping: float,
               backlash: float):
    """A compliant mesh at TE e [m] and its rate [m/s], its stiffness k [N/m] and dk/dphi there
    (`mesh_stiffness_in_phase`); cos = cos(alpha_wt), z the reference gear's teeth. Returns the deflection [m],
    its rate [m/s], stiffness [N/m] and its slope in the mesh phase, the force along the line of action [N],
    energy [J], Ft [N], the potential torque about the reference gear's axis [N m] (-dV/dtheta = -(dk/dphi) z
    p^2 / 2) and the dissipated power [W]."""
    delta, delta_rate = e * cos, slip_rate * cos
    pen = penetration(delta, backlash)
    f_loa, energy = _force_at(pen, delta_rate, k, damping, backlash)  # one stiffness for force and torque
    tau = -0.5 * dk * z * pen * pen if dk != 0.0 and pen != 0.0 else 0.0
    dissipation = damping * delta_rate * delta_rate if pen != 0.0 or backlash == 0.0 else 0.0
    return delta, delta_rate, k, dk, f_loa, energy, -f_loa * cos, tau, dissipation


def equivalent_mass(inertia_1: float, inertia_2: float, base_radius_1: float, base_radius_2: float) -> float:
    """m = I1 I2 / (I1 r_b2^2 + I2 r_b1^2) [kg]: the pair's mass along the line of action."""
    return inertia_1 * inertia_2 / (inertia_1 * base_radius_2 ** 2 + inertia_2 * base_radius_1 ** 2)


def mesh_levers(pair) -> tuple[float, float]:
    """Each gear's lever [m] from its rotation to the approach along the line of action of model GearPair `pair`:
    a cylindrical pair's base radii; a bevel pair's mean cone radii times cos(alpha), where its teeth meet at the
    middle of the face (ISO 10300-1), as the compliant mesh deflects (not the back cone's virtual base radii,
    which the ISO 6336 stiffness of its virtual spur pair takes)."""
    geo = pair_geometry(pair.pair_spec())
    if pair.kind != "bevel":
        return geo.base_radius_1, geo.base_radius_2
    rm1 = bevel_mean_radius(geo.working_radius_1, pair.face_width, pair.pitch_angle)
    cos = math.cos(pair.pressure_angle)
    return rm1 * cos, rm1 * pair.z2 / pair.z1 * cos


def waveform_profile(waveform: str, eps_alpha: float, eps_beta: float, amplitude_ratio: float = 0.0) -> np.ndarray:
    """The relative stiffness over a mesh period for a waveform name (mean 1)."""
    s = np.arange(WAVEFORM_SAMPLES) / WAVEFORM_SAMPLES
    if waveform == "involute":
        return involute_waveform(eps_alpha, eps_beta)
    if waveform == "cosine":
        return 1.0 + amplitude_ratio * np.cos(2 * math.pi * s)
    if waveform == "rectangular":  # single pair k, double 2k, for eps_alpha - 1 of the period; k_mean is k here
        return np.where(s < eps_alpha - 1.0, 2.0, 1.0)
    raise ValueError(f"waveform: must be one of {', '.join(WAVEFORMS)}, got {waveform!r}")


def pair_iso_stiffness(pair) -> IsoMeshStiffness:
    """ISO 6336-1 method B stiffness of model GearPair `pair` (a bevel pair: of its virtual back-cone spur pair, as
    ISO 10300 does for bevel gears)."""
    z1, z2 = pair.z1, pair.z2
    if pair.kind == "bevel":
        z1, z2 = z1 / math.cos(pair.pitch_angle), z2 / math.cos(math.pi / 2 - pair.pitch_angle)
    eps_a = pair_geometry(pair.pair_spec()).transverse_contact_ratio
    return iso6336_stiffness(z1, z2, pair.pressure_angle, pair.helix_angle, eps_a, pair.x1, pair.x2,
                             internal=pair.kind == "internal")


def mesh_model_for(pair, mesh, inertia_1: float, inertia_2: float) -> MeshModel:
    """The MeshModel of model CompliantMesh `mesh` on GearPair `pair`, with the gears' polar inertias [kg m^2]."""
    geo = pair_geometry(pair.pair_spec())
    eps_a, eps_b = geo.transverse_contact_ratio, geo.overlap_ratio
    if mesh.stiffness == "iso6336":
        iso = pair_iso_stiffness(pair)
        k_mean = iso.c_gamma_alpha * pair.face_width
        source = (f"ISO 6336-1 method B: c' = {iso.c_single / 1e9:.4g} N/(mm µm), c_gamma_alpha = "
                  f"{iso.c_gamma_alpha / 1e9:.4g} N/(mm µm) times b = {pair.face_width * 1e3:g} mm")
    else:
        k_mean = mesh.k_mean
        source = f"given: k_mean = {k_mean:.4g} N/m"
    amplitude = mesh.k_amplitude / mesh.k_mean if mesh.k_mean > 0 else 0.0
    profile = waveform_profile(mesh.waveform, eps_a, eps_b, amplitude)
    if mesh.waveform == "rectangular" and mesh.stiffness == "given":
        k_mean = mesh.k_mean  # k_mean is the single-pair stiffness of the rectangular wave
    elif mesh.waveform == "rectangular":
        profile = profile / profile.mean()
    rb1, rb2 = mesh_levers(pair)
    k_eff = k_mean * float(np.mean(profile))
    if mesh.damping_model == "ratio":
        damping = 2.0 * mesh.damping_ratio * math.sqrt(k_eff * equivalent_mass(inertia_1, inertia_2, rb1, rb2))
    else:
        damping = mesh.damping
    return MeshModel(k_mean, np.asarray(profile, float), damping, mesh.backlash, geo.working_pressure_angle, source,
                     cosine=amplitude if mesh.waveform == "cosine" else None)


def mesh_in_model(model, mesh) -> tuple[MeshModel, float]:
    """The MeshModel a run makes of CompliantMesh `mesh` in `model` (its gears' inertias about their joints at the
    start), and the frequency [Hz] of the mesh mode of the two gears on fixed centres, sqrt(k / m_eq) / (2 pi)
    with k the stiffness's mean over a mesh period (0 when a gear has no inertia about its axis)."""
    pair = model.gear_pairs[mesh.pair]
    i1, i2 = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
    law = mesh_model_for(pair, mesh, i1, i2)
    m_eq = equivalent_mass(i1, i2, *mesh_levers(pair)) if i1 > 0 and i2 > 0 else 0.0
    f_n = math.sqrt(law.k_mean * float(np.mean(law.profile)) / m_eq) / (2 * math.pi) if m_eq > 0 else 0.0
    return law, f_n
