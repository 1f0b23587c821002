// The dashboard's HTTP server (cpp-httplib, Debian's libcpp-httplib-dev; docs/dashboard.md says
// why): the page (/), its script (/dashboard.js), Chart.js (/chart.js, read from Debian's
// libjs-chart.js) and the JSON API (json_api.h). Read-only: GET and HEAD only.
//
// Access: bound to 127.0.0.1 unless told otherwise; on any other address a token is required,
// and every request must then carry it ("Authorization: Bearer TOKEN" or ?token=TOKEN; the page
// passes on the one in its own address), else 401.
#ifndef GPBANDIT_CLI_DASHBOARD_SERVER_H_
#define GPBANDIT_CLI_DASHBOARD_SERVER_H_

#include <functional>
#include <iosfwd>
#include <string>

#include "cli/dashboard/json_api.h"

namespace gpbandit {
namespace cli {
namespace dashboard {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8080;  // 0: any free port
  std::string token;
};

// True for an address only this machine reaches (127.0.0.0/8, ::1, localhost).
bool IsLoopback(const std::string& address);

// Throws std::invalid_argument for a non-loopback bind without a token. Serves until stop()
// returns true (checked every 200 ms), after writing "URL\n" to out once it listens. Throws
// std::runtime_error when it cannot bind (the port taken, an address not of this machine).
void Serve(JsonApi& api, const ServerOptions& options, std::ostream& out,
           const std::function<bool()>& stop);

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_DASHBOARD_SERVER_H_
