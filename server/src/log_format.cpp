#include "log_format.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace carom::server {
namespace {

// %j: the message as a JSON string (quotes and control characters escaped).
class JsonMessage final : public spdlog::custom_flag_formatter {
  public:
    void format(const spdlog::details::log_msg& msg, const std::tm&,
                spdlog::memory_buf_t& dest) override {
        const std::string quoted =
            nlohmann::json(std::string(msg.payload.data(), msg.payload.size()))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        dest.append(quoted.data(), quoted.data() + quoted.size());
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<JsonMessage>();
    }
};

}  // namespace

void use_log_format(const std::string& format, const std::string& logger_name) {
    // Thread-safe: the HTTP endpoint and the Agones client log from their own
    // threads (ThreadSanitizer caught the single-threaded logger racing).
    auto logger = spdlog::stderr_logger_mt(logger_name);
    if (format == "json") {
        auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc,
                                                                     std::string("\n"));
        formatter->add_flag<JsonMessage>('j').set_pattern(
            R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","logger":"%n","message":%j})");
        logger->set_formatter(std::move(formatter));
    } else if (format != "text") {
        throw std::invalid_argument("unknown log format '" + format + "' (text, json)");
    }
    spdlog::set_default_logger(std::move(logger));
}

}  // namespace carom::server
