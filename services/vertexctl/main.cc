// vertexctl: the Vertex command-line tool. Offline, it runs the library on
// pages in local files.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "services/vertexctl/commands.h"

namespace {

constexpr char kUsage[] =
    "usage: vertexctl COMMAND [flags] [args]\n"
    "\n"
    "Vertex learns extraction rules for template-generated web sites. Commands (offline,\n"
    "on local page files):\n"
    "  cluster    cluster a site's pages by structure and print JSON\n"
    "  demo       generate the demo site, cluster it, learn its rules (simulated editor), score them\n"
    "  gen-demo   write the generated demo site and its ground truth to a directory\n"
    "  learn      learn a site's rules from annotated sample pages into a store directory\n"
    "  extract    extract records from pages with a site's stored rules (JSON lines)\n"
    "  rules      list a site's rules, or export one as JSON or XSLT\n"
    "  eval-swde  learn a site's rules from its ground truth (simulated editor) and score them\n"
    "  help       show this help\n"
    "\n"
    "Run 'vertexctl COMMAND --help' for a command's flags.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "cluster") return vertex::cli::RunCluster(args);
  if (command == "demo") return vertex::cli::RunDemo(args);
  if (command == "gen-demo") return vertex::cli::RunGenDemo(args);
  if (command == "eval-swde") return vertex::cli::RunEvalSwde(args);
  if (command == "learn") return vertex::cli::RunLearn(args);
  if (command == "extract") return vertex::cli::RunExtract(args);
  if (command == "rules") return vertex::cli::RunRules(args);
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "vertexctl: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
