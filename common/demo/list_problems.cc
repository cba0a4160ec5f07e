#include "common/demo/list_problems.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/demo/markup_util.h"
#include "common/demo/text_util.h"
#include "common/html/text.h"
#include "common/util/random.h"

namespace vertex::demo {
namespace {

using internal::Count;
using internal::Esc;
using internal::Slugify;
using lists::ListKind;
using lists::ListProblem;
using lists::ListRow;
using util::Mix64;
using util::Rng;

// ---------------------------------------------------------------------------
// Vocabulary: four domains with no word in common, written by hand.
// ---------------------------------------------------------------------------

struct Vocabulary {
  const char* name;
  // Item names are "<modifier> <head>" ("Spotted Flycatcher", "Neon
  // Tactics"), or with `headline`, "<modifier> <head> <prose word>"
  // ("Council approves deficit").
  std::vector<std::string> modifiers;
  std::vector<std::string> heads;
  // Lower-case words of prose, details and descriptions.
  std::vector<std::string> prose;
  // The anchors of hot-list items ("photo", "trailer").
  std::vector<std::string> links;
  // Navigation sections.
  std::vector<std::string> sections;
  bool headline;
  // The unit of a detail ("14 cm", "4 players"); one of `prose`.
  const char* unit;
};

const std::vector<Vocabulary>& Vocabularies() {
  static const std::vector<Vocabulary>* const kVocabularies = new std::vector<Vocabulary>{
      {"birds",
       {
         "Northern", "Southern", "Spotted", "Crested", "Tufted", "Barred", "Pied", "Hooded",
         "Ruddy", "Snowy", "Collared", "Bearded", "Tawny", "Barn", "Lesser", "Long-tailed",
         "Short-eared", "Yellow-browed", "Whiskered", "Sooty", "Slaty", "Rufous", "Dusky",
         "Speckled", "Grey-headed", "Black-throated", "Willow", "Sedge", "Mistle", "Meadow"},
       {
         "Owl", "Warbler", "Wren", "Heron", "Egret", "Kestrel", "Falcon", "Plover",
         "Sandpiper", "Curlew", "Godwit", "Thrush", "Finch", "Bunting", "Lark", "Pipit",
         "Wagtail", "Swallow", "Martin", "Grebe", "Cormorant", "Gull", "Tern", "Puffin",
         "Shrike", "Nuthatch", "Woodpecker", "Kingfisher", "Dipper", "Redstart",
         "Flycatcher", "Magpie", "Rook", "Raven", "Starling", "Sparrow", "Goldcrest",
         "Dunnock", "Siskin", "Linnet", "Crossbill", "Bittern", "Crake", "Coot", "Moorhen",
         "Avocet", "Oystercatcher", "Dotterel", "Harrier", "Buzzard", "Osprey", "Eider",
         "Teal", "Wigeon", "Pintail", "Shoveler", "Stonechat", "Whinchat"},
       {
         "plumage", "nest", "wetland", "estuary", "moorland", "hedgerow", "migrant",
         "wintering", "breeding", "clutch", "fledgling", "beak", "wingspan", "roost",
         "flock", "sighting", "ringed", "reserve", "shoreline", "heathland", "feeder",
         "eggs", "brood", "moult", "flyway", "scrub", "cm", "birders"},
       {
         "photo", "range map", "recording", "sonogram"},
       {
         "Species", "Habitats", "Sightings", "Birding", "Ringing", "Fieldcraft"},
       false, "cm"},
      {"games",
       {
         "Dungeon", "Galaxy", "Pixel", "Rogue", "Dragon", "Goblin", "Robot", "Mech",
         "Turbo", "Ninja", "Zombie", "Pirate", "Cosmic", "Neon", "Cyber", "Retro", "Hyper",
         "Mega", "Super", "Ultra", "Titan", "Block", "Kart", "Laser", "Plasma", "Arcane",
         "Voxel"},
       {
         "Racer", "Tactics", "Quest", "Legends", "Kingdom", "Arena", "Blaster", "Wizard",
         "Castle", "Puzzle", "Saga", "Chronicles", "Fury", "Siege", "Conquest", "Frontier",
         "Colony", "Outpost", "Tycoon", "Simulator", "Champions", "League", "Tournament",
         "Rally", "Drift", "Runner", "Jumper", "Dash", "Combo", "Crafter", "Miner",
         "Brawler", "Defender", "Commander"},
       {
         "console", "handheld", "multiplayer", "co-op", "controller", "cartridge", "level",
         "checkpoint", "leaderboard", "patch", "expansion", "sequel", "platformer",
         "shooter", "roguelike", "sandbox", "speedrun", "achievements", "difficulty",
         "respawn", "gameplay", "graphics", "soundtrack", "players", "pixels"},
       {
         "walkthrough", "cheats", "screenshots", "download"},
       {
         "Reviews", "Previews", "Releases", "Esports", "Consoles", "Mods"},
       false, "players"},
      {"movies",
       {
         "Midnight", "Velvet", "Scarlet", "Crimson", "Golden", "Broken", "Forgotten",
         "Hidden", "Sleeping", "Dancing", "Falling", "Burning", "Silent", "Lonely",
         "Wicked", "Tender", "Distant", "Secret", "Endless", "Bitter", "Sweet", "Wild"},
       {
         "Shadow", "Return", "Detective", "Stranger", "Whisper", "Harbour", "Paradise",
         "Summer", "Winter", "Autumn", "Heart", "Desire", "Mystery", "Vengeance", "Justice",
         "Eclipse", "Horizon", "Echo", "Mirror", "Letter", "Promise", "Escape", "Diary",
         "Boulevard", "Carnival", "Circus", "Sunset", "Dawn", "Dusk", "Ocean", "Island",
         "Express", "Hotel", "Casino", "Ballroom", "Lullaby", "Serenade", "Rhapsody",
         "Affair", "Alibi"},
       {
         "director", "starring", "screenplay", "cinematography", "premiere", "matinee",
         "screening", "cinema", "festival", "sequence", "runtime", "rated", "subtitles",
         "drama", "comedy", "thriller", "noir", "romance", "documentary", "animated",
         "biopic", "actor", "actress", "auteur", "reel", "footage", "minutes"},
       {
         "trailer", "showtimes", "tickets", "cast"},
       {
         "Films", "Cinemas", "Premieres", "Critics", "Classics", "Directors"},
       false, "minutes"},
      {"news",
       {
         "Council", "Minister", "Parliament", "Senate", "Mayor", "Governor", "Union",
         "Court", "Police", "Committee", "Treasury", "Inflation", "Markets", "Shares",
         "Election", "Budget", "Storm", "Floods", "Strike", "Talks", "Summit", "Reform",
         "Inquiry", "Protest", "Coalition", "Opposition", "Cabinet", "Ministry",
         "Regulator", "Hospitals", "Pensions", "Tariffs"},
       {
         "approves", "rejects", "delays", "announces", "warns", "cuts", "raises", "backs",
         "blocks", "unveils", "probes", "defends", "scraps", "extends", "halts", "eases",
         "vows", "signs"},
       {
         "reporters", "correspondent", "spokesperson", "statement", "sources", "officials",
         "ballot", "legislation", "deficit", "economy", "quarterly", "forecast", "agency",
         "bulletin", "editorial", "coverage", "taxes", "exports", "rates", "wages", "votes",
         "lawmakers"},
       {
         "full story", "live updates", "analysis", "transcript"},
       {
         "Politics", "Business", "Foreign", "Nation", "Opinion", "Weather"},
       true, "votes"},
  };
  return *kVocabularies;
}

// Boilerplate shared by every domain: function words, navigation, footers,
// selects, site names.
const std::vector<std::string>& SharedWords() {
  static const std::vector<std::string>* const kShared = new std::vector<std::string>{
         "the", "a", "of", "and", "in", "on", "with", "for", "to", "from", "at", "near",
         "after", "over", "Home", "About", "Contact", "Help", "Privacy", "Terms", "Search",
         "Sitemap", "Login", "Register", "Newsletter", "Careers", "Advertise", "Feedback",
         "Accessibility", "Cookies", "Subscribe", "FAQ", "Blog", "Shop", "Links", "Events",
         "Gallery", "Forum", "Members", "Donate", "Support", "Copyright", "Previous",
         "Next", "Page", "Sort", "Newest", "Oldest", "Popular", "Rating", "Name", "Date",
         "by", "Online", "Central", "Hub", "Network", "Daily", "Weekly", "World", "Guide",
         "Zone", "Corner", "Archive", "more", "latest", "All rights reserved"
};
  return *kShared;
}

constexpr const char* kFunctionWords[] = {"the", "a", "of", "and", "in", "on", "with",
                                          "for", "to", "from", "at", "near", "after", "over"};
constexpr const char* kBoilerplate[] = {
    "About",    "Contact", "Help",     "Privacy", "Terms",   "Search",        "Sitemap",
    "Login",    "Register", "Newsletter", "Careers", "Advertise", "Feedback", "Accessibility",
    "Cookies",  "Subscribe", "FAQ",     "Blog",    "Shop",    "Links",         "Events",
    "Gallery",  "Forum",   "Members",  "Donate",  "Support", "Archive"};
constexpr const char* kSiteSuffixes[] = {"Online", "Central", "Hub",   "Network", "Daily",
                                         "Weekly", "World",   "Guide", "Zone",    "Corner"};
constexpr const char* kSortOrders[] = {"Newest", "Oldest", "Popular", "Rating", "Name", "Date"};

// Class names and ids come from one pool for every role and domain: the
// target's container on one page is the navigation's on another.
constexpr const char* kClassPool[] = {
    "list",  "items",  "content", "main",   "box",    "col",    "entries", "links",
    "menu",  "nav",    "results", "panel",  "block",  "section", "group",  "row",
    "cell",  "item",   "entry",   "card",   "wrap",   "inner",  "module",  "widget",
    "area",  "zone",   "body",    "text",   "left",   "right",  "top",     "bottom",
    "primary", "secondary", "feature", "index", "catalog", "directory", "listing", "news"};
constexpr const char* kClassPrefixes[] = {"", "", "", "x-", "pg-", "site-", "c-", "m-"};

// ---------------------------------------------------------------------------
// Variants and distractors.
// ---------------------------------------------------------------------------

enum class Variant {
  kTdGrid, kTrRows, kUlLi, kOlLi, kDlDt, kPRun, kDivItem, kTableHeader,  // lists
  kLiAnchors, kAnchorOnly, kTrLink,                                       // hot-lists
  kBrSeparated, kNameAffiliation,                                         // controls
};
constexpr int kInClassVariants = 11;
constexpr int kControls = 2;
constexpr const char* kVariantNames[] = {
    "td-grid",    "tr-rows",     "ul-li",   "ol-li",        "dl-dt",           "p-run",
    "div-item",   "table-header", "li-anchors", "anchor-only", "tr-link", "br-separated",
    "name-affiliation"};

enum Distractor {
  kNavMenu, kFooterColumns, kBreadcrumbs, kLayoutTable, kSelect, kProseLinks, kSidebarList,
  kDistractors
};
constexpr const char* kDistractorNames[] = {"nav-menu", "footer-columns", "breadcrumbs",
                                            "layout-table", "select", "prose-links",
                                            "sidebar-list"};

// ---------------------------------------------------------------------------
// A page as a tree: built here, rendered to HTML, and the source of the
// ground truth (XPaths, texts) independently of the parser that tests check
// it against.
// ---------------------------------------------------------------------------

class Doc {
 public:
  static constexpr int kDocument = 0;

  Doc() { nodes_.push_back(Node{"#document", "", "", -1, {}}); }

  // A new element, last child of `parent`; `attrs` is markup (`class="x"`).
  int Add(int parent, absl::string_view tag, std::string attrs = {}) {
    nodes_.push_back(Node{std::string(tag), std::move(attrs), "", parent, {}});
    const int id = static_cast<int>(nodes_.size()) - 1;
    nodes_[parent].kids.push_back(id);
    ++elements_;
    return id;
  }
  // A text node. Whitespace-only text is not added: the parser's mirror
  // drops it, and the tree must stay the mirror's.
  void Text(int parent, absl::string_view text) {
    if (html::IsBlank(std::string_view(text.data(), text.size()))) return;
    nodes_.push_back(Node{"", "", std::string(text), parent, {}});
    nodes_[parent].kids.push_back(static_cast<int>(nodes_.size()) - 1);
  }
  int AddText(int parent, absl::string_view tag, std::string attrs, absl::string_view text) {
    const int id = Add(parent, tag, std::move(attrs));
    Text(id, text);
    return id;
  }

  size_t elements() const { return elements_; }
  const std::string& tag(int id) const { return nodes_[id].tag; }

  // /html[1]/body[1]/...: each step's index counts the preceding element
  // siblings of the same name, as XPath does.
  std::string XPath(int id) const {
    std::vector<std::string> steps;
    for (int n = id; n != kDocument; n = nodes_[n].parent) {
      int index = 1;
      for (int sibling : nodes_[nodes_[n].parent].kids) {
        if (sibling == n) break;
        if (nodes_[sibling].tag == nodes_[n].tag) ++index;
      }
      steps.push_back(absl::StrCat("/", nodes_[n].tag, "[", index, "]"));
    }
    std::string out;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) out += *it;
    return out;
  }

  // All the text below `id`, whitespace-normalised.
  std::string TextOf(int id) const {
    std::string raw;
    std::vector<int> stack = {id};
    while (!stack.empty()) {
      const Node& n = nodes_[stack.back()];
      stack.pop_back();
      raw += n.text;
      for (auto it = n.kids.rbegin(); it != n.kids.rend(); ++it) stack.push_back(*it);
    }
    return html::NormalizeSpace(raw);
  }

  // The page: elements whose children are all elements one per line
  // (whitespace the mirror drops), anything holding text on one line (no
  // whitespace is added to its text).
  std::string Render() const {
    std::string out = "<!DOCTYPE html>";
    for (int kid : nodes_[kDocument].kids) RenderNode(kid, 0, false, &out);
    out += "\n";
    return out;
  }

 private:
  struct Node {
    std::string tag;  // "" for text
    std::string attrs;
    std::string text;
    int parent;
    std::vector<int> kids;
  };

  static bool IsVoid(const std::string& tag) {
    return tag == "br" || tag == "meta" || tag == "img" || tag == "hr" || tag == "input";
  }

  // Depth is bounded by the builders below (about 15 levels).
  void RenderNode(int id, int depth, bool inline_context, std::string* out) const {
    const Node& n = nodes_[id];
    if (n.tag.empty()) {
      *out += Esc(n.text);
      return;
    }
    if (!inline_context) {
      *out += '\n';
      out->append(2 * depth, ' ');
    }
    absl::StrAppend(out, "<", n.tag, n.attrs.empty() ? "" : " ", n.attrs, ">");
    if (IsVoid(n.tag)) return;
    bool has_text = false;
    for (int kid : n.kids) has_text = has_text || nodes_[kid].tag.empty();
    const bool kids_inline = inline_context || has_text;
    for (int kid : n.kids) RenderNode(kid, depth + 1, kids_inline, out);
    if (!kids_inline && !n.kids.empty()) {
      *out += '\n';
      out->append(2 * depth, ' ');
    }
    absl::StrAppend(out, "</", n.tag, ">");
  }

  std::vector<Node> nodes_;
  size_t elements_ = 0;
};

std::string Attr(absl::string_view name, absl::string_view value) {
  return absl::StrCat(name, "=\"", Esc(value, true), "\"");
}

std::string JoinAttrs(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return absl::StrCat(a, " ", b);
}

template <typename T>
const T& PickOf(Rng& rng, const std::vector<T>& items) {
  return items[rng.Uniform(items.size())];
}

std::string Capitalised(std::string word) {
  if (!word.empty()) word[0] = absl::ascii_toupper(static_cast<unsigned char>(word[0]));
  return word;
}

// ---------------------------------------------------------------------------
// A page under construction: its template (site), tree, generator and
// target.
// ---------------------------------------------------------------------------

struct Href {
  std::string href;      // as written
  std::string resolved;  // against the page URL
};

// One expected row: the text of `node` (computed when the page is done) or
// `text` as given, and the URL.
struct RowSpec {
  int node = -1;
  std::string text;
  std::string url;
};

class PageBuilder {
 public:
  PageBuilder(const Vocabulary& vocab, uint64_t seed)
      : vocab_(vocab), rng_(seed) {
    prefix_ = internal::Pick(rng_, kClassPrefixes);
    site_name_ = absl::StrCat(PickOf(rng_, vocab_.modifiers), " ", internal::Pick(rng_, kSiteSuffixes));
    host_ = absl::StrCat("www.", Slugify(site_name_), ".test");
    dir_ = Slugify(PickOf(rng_, vocab_.prose));
    link_style_ = static_cast<int>(rng_.Uniform(3));
    html5_ = rng_.Bernoulli(0.6);
  }

  Doc& doc() { return doc_; }
  Rng& rng() { return rng_; }
  const Vocabulary& vocab() const { return vocab_; }
  bool html5() const { return html5_; }
  const std::string& site_name() const { return site_name_; }
  std::string page_url() const { return absl::StrCat("http://", host_, "/", dir_, "/", file_); }
  void set_file(std::string file) { file_ = std::move(file); }

  // A link to `file` in the page's directory, written in the site's link
  // style; `other_dir` links elsewhere on the site (root-relative or
  // absolute).
  Href Link(absl::string_view file, absl::string_view other_dir = {}) {
    const std::string dir = other_dir.empty() ? dir_ : std::string(other_dir);
    Href h;
    h.resolved = absl::StrCat("http://", host_, "/", dir, "/", file);
    if (link_style_ == 0) {
      h.href = h.resolved;
    } else if (link_style_ == 1 || !other_dir.empty()) {
      h.href = absl::StrCat("/", dir, "/", file);
    } else {
      h.href = std::string(file);
    }
    return h;
  }
  // <a href> with `text`, under `parent`.
  int Anchor(int parent, const Href& href, absl::string_view text, std::string attrs = {}) {
    return doc_.AddText(parent, "a", JoinAttrs(Attr("href", href.href), attrs), text);
  }

  // A class attribute from the shared pool (none with probability 1-p).
  std::string Class(double p = 0.7) {
    if (!rng_.Bernoulli(p)) return "";
    std::string name = absl::StrCat(prefix_, internal::Pick(rng_, kClassPool));
    if (rng_.Bernoulli(0.25)) absl::StrAppend(&name, " ", internal::Pick(rng_, kClassPool));
    return Attr("class", name);
  }
  // A class and, sometimes, an id.
  std::string ClassAndId(double p = 0.7) {
    std::string attrs = Class(p);
    if (rng_.Bernoulli(0.2)) {
      attrs = JoinAttrs(attrs, Attr("id", absl::StrCat(internal::Pick(rng_, kClassPool), "-",
                                                       rng_.Uniform(100))));
    }
    return attrs;
  }

  // "Spotted Flycatcher", "Council approves deficit".
  std::string Name() {
    std::string name = absl::StrCat(PickOf(rng_, vocab_.modifiers), " ", PickOf(rng_, vocab_.heads));
    if (vocab_.headline) absl::StrAppend(&name, " ", PickOf(rng_, vocab_.prose));
    return name;
  }
  // "14 cm", "breeding", "2004".
  std::string Detail() {
    switch (rng_.Uniform(3)) {
      case 0: return absl::StrCat(rng_.Range(2, 120), " ", vocab_.unit);
      case 1: return PickOf(rng_, vocab_.prose);
      default: return absl::StrCat(rng_.Range(1970, 2024));
    }
  }
  // A sentence of domain words and function words.
  std::string Words(int lo, int hi) {
    const int n = static_cast<int>(rng_.Range(lo, hi));
    std::string out;
    for (int i = 0; i < n; ++i) {
      std::string w = rng_.Bernoulli(0.3) ? internal::Pick(rng_, kFunctionWords)
                                          : PickOf(rng_, rng_.Bernoulli(0.7) ? vocab_.prose
                                                                            : vocab_.heads);
      absl::StrAppend(&out, i == 0 ? Capitalised(w) : w, i + 1 == n ? "." : " ");
    }
    return out;
  }
  // A file name for a link to an item.
  std::string ItemFile(absl::string_view text) {
    return absl::StrCat(Slugify(text), "-", rng_.Range(1, 9999), ".html");
  }

 private:
  const Vocabulary& vocab_;
  Rng rng_;
  Doc doc_;
  std::string prefix_;
  std::string site_name_;
  std::string host_;
  std::string dir_;
  std::string file_ = "index.html";
  int link_style_ = 0;
  bool html5_ = false;
};

// The target's ground truth as node ids.
struct Target {
  ListKind kind = ListKind::kList;
  std::vector<int> positives;
  std::vector<RowSpec> rows;
};

// ---------------------------------------------------------------------------
// Targets. Each builds `n` items (about) under `parent`.
// ---------------------------------------------------------------------------

// Cells of a row: every cell but the last ends with a space, so the row's
// text reads "Name detail" rather than "Namedetail".
void Cells(PageBuilder& b, int tr, const std::vector<std::string>& texts, absl::string_view tag = "td") {
  for (size_t i = 0; i < texts.size(); ++i) {
    b.doc().AddText(tr, tag, "", i + 1 < texts.size() ? texts[i] + " " : texts[i]);
  }
}

int TableBody(PageBuilder& b, int parent, int* table = nullptr) {
  const int t = b.doc().Add(parent, "table", b.ClassAndId());
  if (table != nullptr) *table = t;
  return b.doc().Add(t, "tbody");
}

void TdGrid(PageBuilder& b, int parent, int n, Target* t) {
  const int cols = static_cast<int>(b.rng().Range(2, 4));
  const int rows = std::max(2, (n + cols - 1) / cols);
  const bool with_affiliation = b.rng().Bernoulli(0.4);
  const int tbody = TableBody(b, parent);
  for (int r = 0; r < rows; ++r) {
    const int tr = b.doc().Add(tbody, "tr");
    for (int c = 0; c < cols; ++c) {
      std::string text = b.Name();
      if (with_affiliation) absl::StrAppend(&text, ", ", b.Detail());
      const int td = b.doc().AddText(tr, "td", "", text);
      t->positives.push_back(td);
      t->rows.push_back({td, "", ""});
    }
  }
}

void TrRows(PageBuilder& b, int parent, int n, Target* t) {
  const int cols = static_cast<int>(b.rng().Range(2, 3));
  const int tbody = TableBody(b, parent);
  for (int r = 0; r < n; ++r) {
    const int tr = b.doc().Add(tbody, "tr", r % 2 == 1 ? b.Class(0.3) : "");
    std::vector<std::string> texts = {b.Name()};
    for (int c = 1; c < cols; ++c) texts.push_back(b.Detail());
    Cells(b, tr, texts);
    t->positives.push_back(tr);
    t->rows.push_back({tr, "", ""});
  }
}

void ListItems(PageBuilder& b, int parent, int n, absl::string_view list_tag, Target* t) {
  const int list = b.doc().Add(parent, list_tag, b.ClassAndId());
  const int style = static_cast<int>(b.rng().Uniform(3));
  const std::string item_class = b.Class(0.3);
  for (int i = 0; i < n; ++i) {
    const int li = b.doc().Add(list, "li", item_class);
    if (style == 0) {
      b.doc().Text(li, b.Name());
    } else if (style == 1) {
      b.doc().Text(li, absl::StrCat(b.Name(), " \xE2\x80\x94 ", b.Detail()));
    } else {
      b.doc().AddText(li, "b", "", b.Name());
      b.doc().Text(li, absl::StrCat(" ", b.Detail()));
    }
    t->positives.push_back(li);
    t->rows.push_back({li, "", ""});
  }
}

void DlDt(PageBuilder& b, int parent, int n, Target* t) {
  const int dl = b.doc().Add(parent, "dl", b.ClassAndId());
  for (int i = 0; i < n; ++i) {
    const int dt = b.doc().AddText(dl, "dt", "", b.Name());
    b.doc().AddText(dl, "dd", "", b.Words(3, 12));
    t->positives.push_back(dt);
    t->rows.push_back({dt, "", ""});
  }
}

void PRun(PageBuilder& b, int parent, int n, Target* t) {
  const int div = b.doc().Add(parent, "div", b.ClassAndId());
  const bool described = b.rng().Bernoulli(0.5);
  for (int i = 0; i < n; ++i) {
    const int p = b.doc().Add(div, "p");
    if (described) {
      b.doc().AddText(p, "b", "", b.Name());
      b.doc().Text(p, absl::StrCat(": ", b.Words(3, 10)));
    } else {
      b.doc().Text(p, b.Name());
    }
    t->positives.push_back(p);
    t->rows.push_back({p, "", ""});
  }
}

void DivItems(PageBuilder& b, int parent, int n, Target* t) {
  const int div = b.doc().Add(parent, "div", b.ClassAndId(0.9));
  const std::string item_class = b.Class(0.95);
  const bool heading = b.rng().Bernoulli(0.5);
  for (int i = 0; i < n; ++i) {
    const int item = b.doc().Add(div, "div", item_class);
    if (heading) {
      b.doc().AddText(item, "h3", "", b.Name() + " ");
      b.doc().AddText(item, "p", "", b.Words(3, 9));
    } else {
      b.doc().AddText(item, "span", b.Class(0.5), b.Name() + " ");
      b.doc().AddText(item, "span", b.Class(0.5), b.Detail());
    }
    t->positives.push_back(item);
    t->rows.push_back({item, "", ""});
  }
}

void TableHeader(PageBuilder& b, int parent, int n, Target* t) {
  const int cols = static_cast<int>(b.rng().Range(2, 4));
  int table = -1;
  std::vector<std::string> headings;
  for (int c = 0; c < cols; ++c) headings.push_back(Capitalised(PickOf(b.rng(), b.vocab().prose)));
  int tbody;
  if (b.rng().Bernoulli(0.5)) {
    // <thead><tr><th>...</tr></thead><tbody>...
    table = b.doc().Add(parent, "table", b.ClassAndId());
    Cells(b, b.doc().Add(b.doc().Add(table, "thead"), "tr"), headings, "th");
    tbody = b.doc().Add(table, "tbody");
  } else {
    // The header is the first row of the body.
    tbody = TableBody(b, parent, &table);
    Cells(b, b.doc().Add(tbody, "tr"), headings, "th");
  }
  for (int r = 0; r < n; ++r) {
    const int tr = b.doc().Add(tbody, "tr");
    std::vector<std::string> texts = {b.Name()};
    for (int c = 1; c < cols; ++c) texts.push_back(b.Detail());
    Cells(b, tr, texts);
    t->positives.push_back(tr);
    t->rows.push_back({tr, "", ""});
  }
}

void LiAnchors(PageBuilder& b, int parent, int n, Target* t) {
  t->kind = ListKind::kHotList;
  const int ul = b.doc().Add(parent, "ul", b.ClassAndId());
  const bool name_linked = b.rng().Bernoulli(0.5);
  for (int i = 0; i < n; ++i) {
    const int li = b.doc().Add(ul, "li");
    t->positives.push_back(li);
    const std::string name = b.Name();
    std::vector<std::pair<int, std::string>> anchors;
    if (name_linked) {
      const Href h = b.Link(b.ItemFile(name));
      anchors.push_back({b.Anchor(li, h, name), h.resolved});
    } else {
      b.doc().AddText(li, "b", "", name);
    }
    const int extra = static_cast<int>(b.rng().Range(name_linked ? 0 : 1, name_linked ? 2 : 3));
    if (extra > 0) b.doc().Text(li, " (");
    for (int k = 0; k < extra; ++k) {
      if (k > 0) b.doc().Text(li, ", ");
      const std::string word = b.vocab().links[(i + k) % b.vocab().links.size()];
      const Href h = b.Link(b.ItemFile(absl::StrCat(name, " ", word)));
      anchors.push_back({b.Anchor(li, h, word), h.resolved});
    }
    if (extra > 0) b.doc().Text(li, ")");
    for (const auto& [a, url] : anchors) {
      t->positives.push_back(a);
      t->rows.push_back({li, "", url});
    }
  }
}

void AnchorOnly(PageBuilder& b, int parent, int n, Target* t) {
  t->kind = ListKind::kHotList;
  const int form = static_cast<int>(b.rng().Uniform(3));
  const int box = b.doc().Add(parent, form == 1 ? "p" : "div", b.ClassAndId());
  for (int i = 0; i < n; ++i) {
    if (form == 1 && i > 0) b.doc().Text(box, " | ");
    const std::string name = b.Name();
    const Href h = b.Link(b.ItemFile(name));
    const int a = b.Anchor(box, h, name);
    if (form == 0) b.doc().Add(box, "br");
    t->positives.push_back(a);
    t->rows.push_back({a, "", h.resolved});
  }
}

void TrLink(PageBuilder& b, int parent, int n, Target* t) {
  t->kind = ListKind::kHotList;
  const int cols = static_cast<int>(b.rng().Range(2, 4));
  const int link_cell = static_cast<int>(b.rng().Uniform(cols));
  const std::string link_word = PickOf(b.rng(), b.vocab().links);
  const int tbody = TableBody(b, parent);
  for (int r = 0; r < n; ++r) {
    const int tr = b.doc().Add(tbody, "tr");
    const std::string name = b.Name();
    int anchor = -1;
    std::string url;
    for (int c = 0; c < cols; ++c) {
      const int td = b.doc().Add(tr, "td");
      std::string text = c == 0 ? name : b.Detail();
      if (c == link_cell) {
        // The name itself, or a link word in a cell of its own. The text
        // cells around it carry the spaces between cells.
        if (c != 0) text = link_word;
        const Href h = b.Link(b.ItemFile(absl::StrCat(name, " ", text)));
        anchor = b.Anchor(td, h, text);
        url = h.resolved;
      } else {
        b.doc().Text(td, absl::StrCat(c > 0 ? " " : "", text, c + 1 < cols ? " " : ""));
      }
    }
    t->positives.push_back(tr);
    t->positives.push_back(anchor);
    t->rows.push_back({tr, "", url});
  }
}

void BrSeparated(PageBuilder& b, int parent, int n, Target* t) {
  const int box = b.doc().Add(parent, b.rng().Bernoulli(0.5) ? "p" : "div", b.ClassAndId());
  for (int i = 0; i < n; ++i) {
    if (i > 0) b.doc().Add(box, "br");
    const std::string name = b.Name();
    b.doc().Text(box, name);
    t->rows.push_back({-1, name, ""});
  }
  t->positives.push_back(box);
}

void NameAffiliation(PageBuilder& b, int parent, int n, Target* t) {
  const int cols = static_cast<int>(b.rng().Range(1, 3));
  const int tbody = TableBody(b, parent);
  const int rows = std::max(2, (n + cols - 1) / cols);
  for (int r = 0; r < rows; ++r) {
    const int tr = b.doc().Add(tbody, "tr");
    for (int c = 0; c < cols; ++c) {
      const std::string name = b.Name();
      const int td = b.doc().AddText(tr, "td", "", absl::StrCat(name, ", ", Capitalised(PickOf(b.rng(), b.vocab().prose)), " ", PickOf(b.rng(), b.vocab().sections)));
      t->positives.push_back(td);
      t->rows.push_back({-1, name, ""});
    }
  }
}

void BuildTarget(Variant v, PageBuilder& b, int parent, int n, Target* t) {
  switch (v) {
    case Variant::kTdGrid: return TdGrid(b, parent, n, t);
    case Variant::kTrRows: return TrRows(b, parent, n, t);
    case Variant::kUlLi: return ListItems(b, parent, n, "ul", t);
    case Variant::kOlLi: return ListItems(b, parent, n, "ol", t);
    case Variant::kDlDt: return DlDt(b, parent, n, t);
    case Variant::kPRun: return PRun(b, parent, n, t);
    case Variant::kDivItem: return DivItems(b, parent, n, t);
    case Variant::kTableHeader: return TableHeader(b, parent, n, t);
    case Variant::kLiAnchors: return LiAnchors(b, parent, n, t);
    case Variant::kAnchorOnly: return AnchorOnly(b, parent, n, t);
    case Variant::kTrLink: return TrLink(b, parent, n, t);
    case Variant::kBrSeparated: return BrSeparated(b, parent, n, t);
    case Variant::kNameAffiliation: return NameAffiliation(b, parent, n, t);
  }
}

// Elements an item of the variant takes (about), to size the target.
int ElementsPerItem(Variant v) {
  switch (v) {
    case Variant::kTrRows: case Variant::kTableHeader: return 3;
    case Variant::kDivItem: case Variant::kLiAnchors: case Variant::kTrLink: return 3;
    case Variant::kDlDt: case Variant::kAnchorOnly: case Variant::kPRun: return 2;
    default: return 1;
  }
}

// ---------------------------------------------------------------------------
// Distractors and filler.
// ---------------------------------------------------------------------------

// A repeated hot-list: ul > li > a.
void NavMenu(PageBuilder& b, int parent) {
  const int ul = b.doc().Add(parent, "ul", b.ClassAndId(0.9));
  const int n = static_cast<int>(b.rng().Range(5, 9));
  for (int i = 0; i < n; ++i) {
    const std::string word = i == 0 ? "Home"
                             : i % 2 == 1 ? b.vocab().sections[i % b.vocab().sections.size()]
                                          : internal::Pick(b.rng(), kBoilerplate);
    b.Anchor(b.doc().Add(ul, "li"), b.Link("index.html", Slugify(word)), word);
  }
}

void FooterColumns(PageBuilder& b, int parent) {
  const int cols = static_cast<int>(b.rng().Range(2, 4));
  for (int c = 0; c < cols; ++c) {
    const int col = b.doc().Add(parent, "div", b.Class(0.9));
    b.doc().AddText(col, "h4", "", c == 0 ? "About" : b.vocab().sections[c % b.vocab().sections.size()]);
    const int ul = b.doc().Add(col, "ul");
    const int n = static_cast<int>(b.rng().Range(3, 6));
    for (int i = 0; i < n; ++i) {
      const std::string word = internal::Pick(b.rng(), kBoilerplate);
      b.Anchor(b.doc().Add(ul, "li"), b.Link(Slugify(word) + ".html", "info"), word);
    }
  }
}

void Breadcrumbs(PageBuilder& b, int parent, const std::string& here) {
  const int box = b.doc().Add(parent, b.rng().Bernoulli(0.5) ? "p" : "div", b.ClassAndId(0.8));
  b.Anchor(box, b.Link("index.html", "home"), "Home");
  b.doc().Text(box, " \xE2\x80\xBA ");
  const std::string section = PickOf(b.rng(), b.vocab().sections);
  b.Anchor(box, b.Link("index.html", Slugify(section)), section);
  b.doc().Text(box, " \xE2\x80\xBA ");
  b.doc().AddText(box, "span", "", here);
}

void SelectForm(PageBuilder& b, int parent) {
  const int form = b.doc().Add(parent, "form", Attr("action", "/search"));
  const int selects = static_cast<int>(b.rng().Range(1, 2));
  for (int s = 0; s < selects; ++s) {
    b.doc().AddText(form, "label", "", s == 0 ? "Sort" : PickOf(b.rng(), b.vocab().sections));
    const int select = b.doc().Add(form, "select", Attr("name", absl::StrCat("f", s)));
    const int n = static_cast<int>(b.rng().Range(4, 30));
    for (int i = 0; i < n; ++i) {
      const std::string text = s == 0 && i < Count(kSortOrders)
                                   ? kSortOrders[i]
                                   : absl::StrCat(Capitalised(PickOf(b.rng(), b.vocab().prose)), " ",
                                                  b.rng().Range(1, 99));
      b.doc().AddText(select, "option", Attr("value", absl::StrCat(i)), text);
    }
  }
}

// A paragraph with 1-3 inline links.
void ProseLinks(PageBuilder& b, int parent) {
  const int p = b.doc().Add(parent, "p", b.Class(0.3));
  const int links = static_cast<int>(b.rng().Range(1, 3));
  b.doc().Text(p, b.Words(4, 14) + " ");
  for (int i = 0; i < links; ++i) {
    const std::string text = absl::StrCat(PickOf(b.rng(), b.vocab().prose), " ",
                                          PickOf(b.rng(), b.vocab().prose));
    b.Anchor(p, b.Link(b.ItemFile(text)), text);
    b.doc().Text(p, " " + b.Words(3, 12) + " ");
  }
}

void SidebarList(PageBuilder& b, int parent) {
  const int box = b.doc().Add(parent, "div", b.ClassAndId(0.8));
  b.doc().AddText(box, "h3", "", PickOf(b.rng(), b.vocab().sections));
  const int ul = b.doc().Add(box, "ul", b.Class(0.5));
  const int n = static_cast<int>(b.rng().Range(3, 5));
  const bool linked = b.rng().Bernoulli(0.5);
  for (int i = 0; i < n; ++i) {
    const int li = b.doc().Add(ul, "li");
    const std::string name = b.Name();
    if (linked) {
      b.Anchor(li, b.Link(b.ItemFile(name)), name);
    } else {
      b.doc().Text(li, name);
    }
  }
}

// One block of filler: a teaser, a related-links box, a fact table or
// prose.
void Filler(PageBuilder& b, int parent) {
  const int section = b.doc().Add(parent, "div", b.Class(0.6));
  const int blocks = static_cast<int>(b.rng().Range(1, 4));
  for (int k = 0; k < blocks; ++k) {
    switch (b.rng().Uniform(4)) {
      case 0: {
        const int teaser = b.doc().Add(section, "div", b.Class(0.6));
        b.doc().AddText(teaser, "h3", "", b.Name());
        b.doc().AddText(teaser, "p", "", b.Words(6, 20));
        break;
      }
      case 1: {
        b.doc().AddText(section, "h4", "", absl::StrCat("More ", PickOf(b.rng(), b.vocab().prose)));
        const int ul = b.doc().Add(section, "ul", b.Class(0.5));
        const int n = static_cast<int>(b.rng().Range(2, 6));
        for (int i = 0; i < n; ++i) {
          const std::string name = b.Name();
          b.Anchor(b.doc().Add(ul, "li"), b.Link(b.ItemFile(name)), name);
        }
        break;
      }
      case 2: {
        const int tbody = TableBody(b, section);
        const int n = static_cast<int>(b.rng().Range(2, 6));
        for (int i = 0; i < n; ++i) {
          Cells(b, b.doc().Add(tbody, "tr"), {Capitalised(PickOf(b.rng(), b.vocab().prose)), b.Detail()});
        }
        break;
      }
      default:
        ProseLinks(b, section);
        break;
    }
  }
}

// ---------------------------------------------------------------------------
// A page.
// ---------------------------------------------------------------------------

struct PagePlan {
  int domain = 0;  // index into the options' domains
  Variant variant = Variant::kUlLi;
  int items = 0;  // 0: drawn from the size
  std::string id;
};

// Elements of the page, log-uniform in [lo, hi].
int DrawSize(Rng& rng, int lo, int hi) {
  const double u = rng.UnitDouble();
  return static_cast<int>(std::lround(std::exp(std::log(lo) + u * (std::log(hi) - std::log(lo)))));
}

GeneratedListProblem BuildPage(const PagePlan& plan, const Vocabulary& vocab,
                               const ListProblemsOptions& options, size_t index) {
  PageBuilder b(vocab, Mix64(options.seed ^ Mix64(index + 1)));
  Rng& rng = b.rng();
  const int size = DrawSize(rng, options.min_elements, options.max_elements);
  // Distractors: the one of the page's index always, the others drawn.
  bool has[kDistractors] = {};
  has[index % kDistractors] = true;
  for (int d = 0; d < kDistractors; ++d) {
    if (rng.Bernoulli(d == kNavMenu ? 0.7 : d == kLayoutTable ? 0.3 : 0.45)) has[d] = true;
  }
  if (size < 120) {  // small pages keep at most two distractors
    int kept = 0;
    for (int d = 0; d < kDistractors; ++d) {
      if (has[d] && d != static_cast<int>(index % kDistractors) && ++kept > 1) has[d] = false;
    }
  }
  const std::string heading = absl::StrCat(PickOf(rng, vocab.sections), ": ", b.Name());
  b.set_file(absl::StrCat(Slugify(heading), ".html"));

  Doc& doc = b.doc();
  const int html = doc.Add(Doc::kDocument, "html", Attr("lang", "en"));
  const int head = doc.Add(html, "head");
  doc.Add(head, "meta", Attr("charset", "utf-8"));
  doc.AddText(head, "title", "", absl::StrCat(heading, " \xE2\x80\x94 ", b.site_name()));
  const int body = doc.Add(html, "body", b.Class(0.3));

  // The frame: a layout table (header row, sidebar + main, footer row) or
  // sectioning elements.
  int top, content, side, bottom;
  if (has[kLayoutTable]) {
    const int tbody = TableBody(b, body);
    top = doc.Add(doc.Add(tbody, "tr"), "td", Attr("colspan", "2"));
    const int tr = doc.Add(tbody, "tr");
    const bool side_left = rng.Bernoulli(0.6);
    side = side_left ? doc.Add(tr, "td", Attr("width", "20%")) : -1;
    content = doc.Add(tr, "td", b.Class(0.5));
    if (!side_left) side = doc.Add(tr, "td", Attr("width", "25%"));
    bottom = doc.Add(doc.Add(tbody, "tr"), "td", Attr("colspan", "2"));
  } else {
    top = doc.Add(body, b.html5() ? "header" : "div", b.ClassAndId());
    const int wrap = doc.Add(body, "div", b.Class(0.6));
    content = doc.Add(wrap, b.html5() ? "main" : "div", b.ClassAndId());
    side = doc.Add(wrap, b.html5() ? "aside" : "div", b.ClassAndId());
    bottom = doc.Add(body, b.html5() ? "footer" : "div", b.ClassAndId());
  }
  doc.AddText(top, "h1", "", b.site_name());
  if (has[kNavMenu]) NavMenu(b, b.html5() && !has[kLayoutTable] ? doc.Add(top, "nav") : top);
  if (has[kBreadcrumbs]) Breadcrumbs(b, content, heading);
  doc.AddText(content, "h2", "", heading);
  if (has[kProseLinks] && rng.Bernoulli(0.5)) ProseLinks(b, content);

  // The target, sized to a share of the page.
  const double share = 0.1 + 0.4 * rng.UnitDouble();
  const int items = plan.items > 0 ? plan.items
                                   : std::clamp(static_cast<int>(share * size / ElementsPerItem(plan.variant)),
                                                3, 60);
  Target target;
  BuildTarget(plan.variant, b, doc.Add(content, "div", b.ClassAndId(0.8)), items, &target);

  if (has[kSelect]) SelectForm(b, rng.Bernoulli(0.5) ? content : side);
  if (has[kProseLinks]) ProseLinks(b, content);
  if (has[kSidebarList]) SidebarList(b, side);
  if (has[kFooterColumns]) FooterColumns(b, bottom);
  doc.AddText(bottom, "p", b.Class(0.4), absl::StrCat("Copyright ", rng.Range(1998, 2024), " ", b.site_name(), ". All rights reserved"));
  while (static_cast<int>(doc.elements()) < size) Filler(b, rng.Bernoulli(0.6) ? content : side);

  GeneratedListProblem g;
  ListProblem& p = g.problem;
  p.id = plan.id;
  p.domain = vocab.name;
  p.url = b.page_url();
  p.html = doc.Render();
  p.kind = target.kind;
  for (int node : target.positives) p.positive_xpaths.push_back(doc.XPath(node));
  for (const RowSpec& row : target.rows) {
    p.rows.push_back({row.node >= 0 ? doc.TextOf(row.node) : row.text, row.url});
  }
  p.variant = kVariantNames[static_cast<int>(plan.variant)];
  p.out_of_class = plan.variant == Variant::kBrSeparated || plan.variant == Variant::kNameAffiliation;
  for (int d = 0; d < kDistractors; ++d) {
    if (has[d]) g.distractors.push_back(kDistractorNames[d]);
  }
  g.elements = doc.elements();
  return g;
}

absl::Status CheckOptions(const ListProblemsOptions& o, std::vector<const Vocabulary*>* domains) {
  if (o.pages < 1 || o.pages > 10000) {
    return absl::InvalidArgumentError(absl::StrCat("pages ", o.pages, ": expected 1..10000"));
  }
  if (o.min_elements < 30 || o.max_elements < o.min_elements || o.max_elements > 20000) {
    return absl::InvalidArgumentError(absl::StrCat("min_elements ", o.min_elements, ", max_elements ",
                                                   o.max_elements,
                                                   ": expected 30 <= min <= max <= 20000"));
  }
  if (o.long_p_run != 0 && (o.long_p_run < 100 || o.long_p_run > 5000)) {
    return absl::InvalidArgumentError(
        absl::StrCat("long_p_run ", o.long_p_run, ": expected 0 or 100..5000"));
  }
  if (!(o.out_of_class_fraction >= 0 && o.out_of_class_fraction <= 0.5)) {
    return absl::InvalidArgumentError(absl::StrCat("out_of_class_fraction ", o.out_of_class_fraction,
                                                   ": expected 0..0.5"));
  }
  const std::vector<std::string>& names = o.domains.empty() ? ListProblemDomains() : o.domains;
  std::set<std::string> seen;
  for (const std::string& name : names) {
    const Vocabulary* found = nullptr;
    for (const Vocabulary& v : Vocabularies()) {
      if (name == v.name) found = &v;
    }
    if (found == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("domain \"", name, "\": expected birds, games, movies or news"));
    }
    if (!seen.insert(name).second) {
      return absl::InvalidArgumentError(absl::StrCat("domain \"", name, "\" given twice"));
    }
    domains->push_back(found);
  }
  return absl::OkStatus();
}

// Which domain and variant each page gets: the pages split evenly over the
// domains; in each domain, the in-class variants in a shuffled cycle (every
// variant in every domain of 11 pages or more) and its share of the
// controls; the first p-run page holds the long run.
std::vector<PagePlan> Plan(const ListProblemsOptions& o, const std::vector<const Vocabulary*>& domains) {
  Rng rng(Mix64(o.seed ^ 0x6c697374ULL));
  const int d_count = static_cast<int>(domains.size());
  const int controls = static_cast<int>(std::lround(o.out_of_class_fraction * o.pages));
  std::vector<PagePlan> plan;
  bool long_run_given = o.long_p_run == 0;
  for (int d = 0; d < d_count; ++d) {
    const int pages = o.pages / d_count + (d < o.pages % d_count ? 1 : 0);
    std::vector<Variant> variants;
    for (int k = d; k < controls; k += d_count) {
      variants.push_back(static_cast<Variant>(kInClassVariants + (k % kControls)));
    }
    std::vector<Variant> cycle;
    for (int v = 0; v < kInClassVariants; ++v) cycle.push_back(static_cast<Variant>(v));
    for (size_t i = cycle.size(); i > 1; --i) std::swap(cycle[i - 1], cycle[rng.Uniform(i)]);
    for (size_t k = 0; static_cast<int>(variants.size()) < pages; ++k) {
      variants.push_back(cycle[k % cycle.size()]);
    }
    variants.resize(std::min<size_t>(variants.size(), pages));
    for (size_t i = variants.size(); i > 1; --i) std::swap(variants[i - 1], variants[rng.Uniform(i)]);
    for (int i = 0; i < pages; ++i) {
      PagePlan p;
      p.domain = d;
      p.variant = variants[i];
      p.id = absl::StrFormat("%s-%03d", domains[d]->name, i);
      if (!long_run_given && p.variant == Variant::kPRun) {
        p.items = o.long_p_run;
        long_run_given = true;
      }
      plan.push_back(std::move(p));
    }
  }
  return plan;
}

}  // namespace

const std::vector<std::string>& ListProblemDomains() {
  static const std::vector<std::string>* const kDomains = [] {
    auto* names = new std::vector<std::string>;
    for (const Vocabulary& v : Vocabularies()) names->push_back(v.name);
    return names;
  }();
  return *kDomains;
}

absl::StatusOr<std::vector<std::string>> ListProblemVocabulary(absl::string_view domain) {
  for (const Vocabulary& v : Vocabularies()) {
    if (domain != v.name) continue;
    std::vector<std::string> words;
    for (const auto* part : {&v.modifiers, &v.heads, &v.prose, &v.links, &v.sections}) {
      words.insert(words.end(), part->begin(), part->end());
    }
    return words;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("domain \"", std::string(domain), "\": expected birds, games, movies or news"));
}

const std::vector<std::string>& ListProblemSharedWords() { return SharedWords(); }

const std::vector<std::string>& ListProblemVariants() {
  static const std::vector<std::string>* const kNames =
      new std::vector<std::string>(kVariantNames, kVariantNames + kInClassVariants);
  return *kNames;
}

const std::vector<std::string>& ListProblemControls() {
  static const std::vector<std::string>* const kNames = new std::vector<std::string>(
      kVariantNames + kInClassVariants, kVariantNames + kInClassVariants + kControls);
  return *kNames;
}

const std::vector<std::string>& ListProblemDistractors() {
  static const std::vector<std::string>* const kNames =
      new std::vector<std::string>(kDistractorNames, kDistractorNames + kDistractors);
  return *kNames;
}

absl::StatusOr<std::vector<GeneratedListProblem>> GenerateListProblems(
    const ListProblemsOptions& options) {
  std::vector<const Vocabulary*> domains;
  absl::Status ok = CheckOptions(options, &domains);
  if (!ok.ok()) return ok;
  const std::vector<PagePlan> plan = Plan(options, domains);
  std::vector<GeneratedListProblem> problems;
  problems.reserve(plan.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    problems.push_back(BuildPage(plan[i], *domains[plan[i].domain], options, i));
  }
  return problems;
}

std::vector<lists::ListProblem> ProblemsOf(std::vector<GeneratedListProblem> generated) {
  std::vector<lists::ListProblem> problems;
  problems.reserve(generated.size());
  for (GeneratedListProblem& g : generated) problems.push_back(std::move(g.problem));
  return problems;
}

}  // namespace vertex::demo
