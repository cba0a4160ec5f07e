// vertexctl: the Vertex command-line tool. Commands over a site's rules run
// offline, on a local rule store (--store DIR), or online against the
// Vertex services (--server HOST:PORT), printing the same either way; the
// page-file tools (cluster, demo, gen-demo, eval-swde) run offline only.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "services/vertexctl/commands.h"

namespace {

constexpr char kUsage[] =
    "usage: vertexctl COMMAND [flags] [args]\n"
    "\n"
    "Vertex learns extraction rules for template-generated web sites.\n"
    "\n"
    "Commands over a site's rules, offline on a rule store directory (--store DIR) or online\n"
    "against a Vertex service (--server HOST:PORT, token from --token or $VERTEX_AUTH_TOKEN):\n"
    "  site       register a site with its schema, add sample pages, or delete it (JSON)\n"
    "  tasks      the pages to annotate next, per cluster (JSON)\n"
    "  learn      register a site, add its sample pages and learn its rules from annotations (JSON)\n"
    "  extract    extract records from pages with a site's current rules (JSON lines)\n"
    "  rules      list a site's rules, get one, export it (JSON, XSLT or fields), roll back a version, or\n"
    "             accept or reject a repaired (candidate) rule\n"
    "  monitor    test a site's bellwether pages (given, or fetched) for template changes and store\n"
    "             the run (exit 0 OK, 2 CHANGED or BROKEN, 3 UNREACHABLE)\n"
    "  history    a site's stored monitoring runs, newest first\n"
    "  gazetteer  learn: grow a record-level attribute's gazetteer from pages (AMBER's Alg. 5)\n"
    "  list-model train: the list finder from the store's rules and snapshots (or --problems DIR,\n"
    "             --store only); show: the stored list models\n"
    "  lists      the lists and hot-lists the stored list model finds on pages\n"
    "  relearn    relearn a changed site from a fresh sample (given, or fetched), reusing and\n"
    "             repairing its rules\n"
    "  feed       annotate: annotate a site's pages from its RSS/Atom feed and, with --learn, learn\n"
    "             its rules with no editor (accepted when they reproduce the feed)\n"
    "\n"
    "Online only:\n"
    "  health     ask a server whether it is SERVING (for healthchecks and probes)\n"
    "\n"
    "A site's whole life, in process (an in-memory store) or against --server:\n"
    "  demo       generate the demo site (or take --pages), learn its rules with an editor simulated\n"
    "             from the ground truth through the learning API, extract every page, score them\n"
    "\n"
    "Offline only, on local page files:\n"
    "  cluster    cluster a site's pages by structure and print JSON\n"
    "  gen-demo   write the generated demo site and its ground truth to a directory\n"
    "  eval-swde  learn a site's rules from its ground truth (simulated editor) and score them\n"
    "  eval-listings  score AMBER and its learnt record rules on generated result-list sites\n"
    "  xhtml      write a page's XHTML serialisation, the input of an exported XSLT rule\n"
    "  amber      find the records of result pages with no rule (AMBER): areas, records, attributes\n"
    "  list-model eval: score the page-independent list finder on a list problem set (Tables 1-2, Fig. 5)\n"
    "  discover-links  the detail-page URLs of category pages' hot-lists (list model); --add fetches\n"
    "             them into a site's sample\n"
    "\n"
    "  help       show this help\n"
    "\n"
    "Run 'vertexctl COMMAND --help' for a command's flags.\n";

using Command = int (*)(const std::vector<std::string>&);

struct NamedCommand {
  const char* name;
  Command run;
};

constexpr NamedCommand kCommands[] = {
    {"site", vertex::cli::RunSite},          {"tasks", vertex::cli::RunTasks},
    {"learn", vertex::cli::RunLearn},        {"extract", vertex::cli::RunExtract},
    {"rules", vertex::cli::RunRules},        {"monitor", vertex::cli::RunMonitor},
    {"history", vertex::cli::RunHistory},    {"relearn", vertex::cli::RunRelearn},
    {"health", vertex::cli::RunHealth},      {"cluster", vertex::cli::RunCluster},
    {"demo", vertex::cli::RunDemo},          {"gen-demo", vertex::cli::RunGenDemo},
    {"eval-swde", vertex::cli::RunEvalSwde}, {"xhtml", vertex::cli::RunXhtml},
    {"amber", vertex::cli::RunAmber},        {"eval-listings", vertex::cli::RunEvalListings},
    {"gazetteer", vertex::cli::RunGazetteer},
    {"list-model", vertex::cli::RunListModel},
    {"lists", vertex::cli::RunLists},
    {"discover-links", vertex::cli::RunDiscoverLinks},
    {"feed", vertex::cli::RunFeed},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  for (const NamedCommand& c : kCommands) {
    if (command == c.name) return c.run(args);
  }
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "vertexctl: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
