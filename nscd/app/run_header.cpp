#include "nscd/app/run_header.hpp"

namespace nscd::app {

nlohmann::json run_header(const RunStart& start) {
  const auto or_null = [](const auto& value) { return value ? nlohmann::json(*value) : nlohmann::json(nullptr); };
  return {{"version", NSCD_VERSION},
          {"vtk", {{"version", NSCD_VTK_VERSION}, {"origin", NSCD_VTK_ORIGIN}}},
          {"scene", std::filesystem::absolute(start.scene).string()},
          {"scene_sha256", start.scene_sha256},
          {"restarted_from", start.restarted_from ? nlohmann::json(start.restarted_from->string()) : nlohmann::json(nullptr)},
          {"threads", start.threads},
          {"solver", solvers::to_string(start.solver)},
          {"model_override", or_null(start.model_override)},
          {"time_step", start.time_step},
          {"status", "running"}};
}

}  // namespace nscd::app
