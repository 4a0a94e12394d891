"""What a compliant mesh will be in a run, in the app's units: its stiffness and where it comes from, its range
over a mesh period, its damping and the mesh mode's frequency (core.gearing.mesh_model.mesh_in_model)."""

from __future__ import annotations

from core.gearing.mesh_model import mesh_in_model, pair_iso_stiffness
from core.ranges import N_PER_UM, hertz

PER_UM = N_PER_UM["scale"]  # N/m -> N/µm


def mesh_note(model, mesh) -> str:
    """Two lines on CompliantMesh `mesh` of `model` as a run makes it ('' when its pair is not in the model)."""
    pair = model.gear_pairs.get(mesh.pair)
    if pair is None:
        return ""
    law, f_n = mesh_in_model(model, mesh)
    if mesh.stiffness == "iso6336":
        c = pair_iso_stiffness(pair).c_gamma_alpha * 1e-9  # N/m^2 -> N/(mm µm)
        source = f"ISO 6336-1 method B: c_γα {c:.4g} N/(mm µm) × b {pair.face_width * 1e3:.4g} mm"
    else:
        source = "given"
    k = law.k_mean * law.profile
    # of the pair's two shafts alone: a train's other inertias and a motor's hold move the train's modes from it
    mode = (f"; mesh mode {hertz(f_n)} of its two shafts alone, on fixed centres (the reference of the damping "
            "ratio; Check Model gives the assembled train's fastest mode)") if f_n > 0 else ""
    return (f"k_mean {law.k_mean * PER_UM:.4g} N/µm ({source}); {mesh.waveform} waveform, "
            f"{k.min() * PER_UM:.4g} to {k.max() * PER_UM:.4g} N/µm over a mesh period\n"
            f"damping {law.damping:.4g} N s/m{mode}")
