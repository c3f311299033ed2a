#include "nscd/step/body_kind.hpp"

namespace nscd {

const char* to_string(BodyKind kind) {
  switch (kind) {
    case BodyKind::Rigid: return "rigid";
    case BodyKind::Ffr: return "ffr";
    case BodyKind::Tl: return "tl";
    case BodyKind::Linear: return "linear";
    case BodyKind::Fixed: return "fixed";
    case BodyKind::Driven: break;
  }
  return "driven";
}

}  // namespace nscd
