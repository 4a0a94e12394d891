"""What happens between two gears, shared by the multibody engine, the harmonic balance and the modelling tools:
pitch-point geometry and tooth forces, placing gears in mesh."""
