#pragma once
// carom-server's log lines on stderr: "text" (spdlog's usual line) or "json",
// one object per line for log shippers:
// {"time":"2026-01-01T12:00:00.123Z","level":"info","logger":"carom-server","message":"..."}
#include <string>

namespace carom::server {

// Installs the stderr logger in `format` ("text" or "json"). Throws
// std::invalid_argument for any other format.
void use_log_format(const std::string& format, const std::string& logger_name);

}  // namespace carom::server
