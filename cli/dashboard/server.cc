#include "cli/dashboard/server.h"

#include <httplib.h>

#include <atomic>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "cli/dashboard/page_assets.h"

namespace gpbandit {
namespace cli {
namespace dashboard {
namespace {

// Equal texts, in a time that does not depend on where they first differ.
bool SameToken(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || b.empty()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

bool Authorized(const httplib::Request& req, const std::string& token) {
  if (token.empty()) return true;
  const std::string header = req.get_header_value("Authorization");
  if (header.rfind("Bearer ", 0) == 0 && SameToken(header.substr(7), token)) return true;
  return req.has_param("token") && SameToken(req.get_param_value("token"), token);
}

// The types are spelled with a charset so that cpp-httplib does not compress the answer: its
// brotli runs at the highest quality, which took a second for Chart.js and three for the first
// trials of a study of 10^5 (measured: docs/dashboard.md); on loopback plain text is faster.
constexpr char kJavaScript[] = "application/javascript; charset=utf-8";
constexpr char kJson[] = "application/json; charset=utf-8";

void Send(httplib::Response& res, int status, const std::string& body, const char* type) {
  res.status = status;
  res.set_content(body, type);
  // The page and its data are the study's: no other site may frame or sniff them.
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Cache-Control", "no-store");
}

}  // namespace

bool IsLoopback(const std::string& address) {
  return address == "localhost" || address == "::1" || address.rfind("127.", 0) == 0;
}

void Serve(JsonApi& api, const ServerOptions& options, std::ostream& out,
           const std::function<bool()>& stop) {
  if (!IsLoopback(options.bind) && options.token.empty())
    throw std::invalid_argument("--bind " + options.bind +
                                " reaches beyond this machine: give --token TOKEN too");
  ChartJs();  // fail now, not on the first page, when Chart.js is missing
  httplib::Server server;
  server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    if (req.method != "GET" && req.method != "HEAD") {
      Send(res, 405, "{\"error\": \"read-only: GET only\"}", kJson);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (!Authorized(req, options.token)) {
      Send(res, 401, "{\"error\": \"a valid token is required (?token=... or Bearer)\"}", kJson);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    Send(res, 200, IndexHtml(), "text/html; charset=utf-8");
  });
  server.Get("/dashboard.js", [](const httplib::Request&, httplib::Response& res) {
    Send(res, 200, DashboardJs(), kJavaScript);
  });
  server.Get("/chart.js", [](const httplib::Request&, httplib::Response& res) {
    Send(res, 200, ChartJs(), kJavaScript);
  });
  server.Get(R"(/api/[a-z]+)", [&api](const httplib::Request& req, httplib::Response& res) {
    std::map<std::string, std::string> params;
    for (const auto& [key, value] : req.params) params[key] = value;
    const ApiResponse r = api.Handle(req.path, params);
    Send(res, r.status, ScriptJson(r.body), kJson);
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 404 && res.body.empty())
      Send(res, 404, "{\"error\": \"no such page: " + HtmlEscape(req.path) + "\"}", kJson);
  });
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.bind);
    if (port < 0) throw std::runtime_error("cannot listen on " + options.bind);
  } else if (!server.bind_to_port(options.bind, port)) {
    throw std::runtime_error("cannot listen on " + options.bind + ":" + std::to_string(port) +
                             " (in use, or not an address of this machine)");
  }
  const std::string host =
      options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  out << "http://" << host << ":" << port << "/"
      << (options.token.empty() ? "" : "?token=" + options.token) << std::endl;
  std::atomic<bool> ended{false};
  std::thread watcher([&] {
    while (!ended && !stop()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    server.stop();
  });
  server.listen_after_bind();
  ended = true;
  watcher.join();
}

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit
