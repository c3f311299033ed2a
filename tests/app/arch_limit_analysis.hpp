#pragma once
// The collapse load multiplier of a semicircular arch of rigid voussoirs by the kinematic theorem
// of limit analysis [Heyman 1966], for the tests of `nscd collapse`.
//
// The arch is that of scenes/gen_arch.py: n voussoirs with flat faces, voussoir i the
// quadrilateral between the radial joints at φ_i = π i / n and φ_{i+1}, from the inner radius R
// to R + t, in the plane (x, z), its springings on fixed abutments (joints 0 and n). Every
// voussoir carries its weight m_i g (down, −z) and the horizontal load λ m_i g (+x).
//
// A mechanism has 4 hinges at joints j₁ < j₂ < j₃ < j₄, each at the joint's intrados or extrados
// point H_k; the voussoirs between them form three rigid bodies A = [j₁, j₂), B = [j₂, j₃),
// C = [j₃, j₄), the others stay fixed. A turns about H₁ at ω_A, C about H₄ at ω_C; B's
// instantaneous centre O_B lies on the lines H₁H₂ and H₄H₃, and continuity at H₂, H₃ gives
//
//   ω_A (H₂ − H₁) = ω_B (H₂ − O_B),   ω_B (H₃ − O_B) = ω_C (H₃ − H₄).
//
// A voussoir's centroid c turning at ω about O moves at ω (−(c_z − O_z), c_x − O_x). A hinge is
// admissible when the joint opens away from it: with ω_rel the rotation of the body after the
// joint (larger φ) relative to the one before, ω_rel ≥ 0 at an intrados hinge, ≤ 0 at an
// extrados one. The work rates of gravity and of the horizontal load (per unit g),
//
//   W_g = −Σ m_i v_i,z,   W_h = Σ m_i v_i,x,
//
// give the mechanism's multiplier λ = −W_g / W_h (W_h > 0); the collapse multiplier is the
// smallest over every admissible mechanism (the kinematic theorem: an upper bound, reached by the
// true mechanism). Sliding is excluded (enough friction).
//
// Reference: [Heyman 1966] The stone skeleton, Int. J. Solids Struct. 2, 249–279.

#include <array>

namespace nscd::test {

struct ArchGeometry {
  int voussoirs = 20;
  double radius = 1;     // R, intrados [m]
  double thickness = 0.15;  // t [m]
};

struct HingeMechanism {
  double multiplier = 0;          // λ; negative: the arch falls under its own weight
  std::array<int, 4> joints{};    // j₁ < j₂ < j₃ < j₄
  std::array<bool, 4> intrados{};  // each hinge at the intrados (true) or the extrados
};

/// The admissible 4-hinge mechanism of smallest λ under a horizontal load along +x.
HingeMechanism arch_collapse_mechanism(const ArchGeometry& arch);

}  // namespace nscd::test
