// The page's assets: the HTML (page/index.html) and the script (page/dashboard.js), compiled in
// (page_assets.cc.in), and Chart.js, read from where Debian's libjs-chart.js installs it
// (GPBANDIT_CHARTJS_PATH; no CDN, so the page works offline).
#ifndef GPBANDIT_CLI_DASHBOARD_PAGE_ASSETS_H_
#define GPBANDIT_CLI_DASHBOARD_PAGE_ASSETS_H_

#include <string>

namespace gpbandit {
namespace cli {
namespace dashboard {

const std::string& IndexHtml();
const std::string& DashboardJs();
// Chart.js's text; throws std::runtime_error naming the path when it cannot be read.
const std::string& ChartJs();

// The self-contained report: the page with Chart.js, the script and `data_json` (ScriptJson
// text: {"studies": ..., "trials": {name: ...}, "models": {name: ...}}) inlined.
std::string ReportHtml(const std::string& data_json);

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_DASHBOARD_PAGE_ASSETS_H_
