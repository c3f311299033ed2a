#include "nscd/step/model.hpp"

namespace nscd {

const ffr::FfrBody* finite_element_body(const Model& m, int b) {
  const BodyModel& body = m.bodies[b];
  switch (body.kind) {
    case BodyKind::Ffr:
      return &m.ffr_bodies[body.ffr_index];
    case BodyKind::Tl:
    case BodyKind::Linear:
      return &m.tl_bodies[body.tl_index].fe;
    case BodyKind::Rigid:
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  return nullptr;
}

long unknowns(const Model& m, int b) {
  switch (m.bodies[b].kind) {
    case BodyKind::Rigid:
      return 6;
    case BodyKind::Ffr:
      return 6 + finite_element_body(m, b)->ncoordinates();
    case BodyKind::Tl:
    case BodyKind::Linear:
      return finite_element_body(m, b)->ndof();
    case BodyKind::Fixed:
    case BodyKind::Driven:
      break;
  }
  return 0;
}

}  // namespace nscd
