#include "common/html/rendered_text.h"

#include <algorithm>
#include <iterator>

#include "common/html/text.h"

namespace vertex::html {
namespace {

// Elements whose content is not rendered.
bool IsSkippedTag(std::string_view tag) {
  return tag == "head" || tag == "title" || tag == "script" || tag == "style" || tag == "noscript" ||
         tag == "template";
}

// Accumulates text and cuts it into normalised lines.
class LineBuilder {
 public:
  void Text(std::string_view s) { line_.append(s); }
  void Space() { line_ += ' '; }
  void Break() {
    std::string line = NormalizeSpace(line_);
    if (!line.empty()) lines_.push_back(std::move(line));
    line_.clear();
  }
  std::vector<std::string> Finish() {
    Break();
    return std::move(lines_);
  }

 private:
  std::string line_;
  std::vector<std::string> lines_;
};

// What an element does to the text around it, at its start or end.
void Boundary(Node element, LineBuilder* out) {
  const std::string_view tag = element.tag();
  if (tag == "td" || tag == "th") {
    out->Space();
  } else if (IsBlockTag(tag)) {
    out->Break();
  }
}

}  // namespace

std::vector<std::string_view> AttributeNames(Node node) {
  std::vector<std::string_view> out;
  if (!node.is_element()) return out;
  for (xmlAttr* a = node.raw()->properties; a != nullptr; a = a->next) {
    out.emplace_back(reinterpret_cast<const char*>(a->name));
  }
  return out;
}

bool IsBlockTag(std::string_view tag) {
  static constexpr std::string_view kBlocks[] = {
      "address", "article", "aside",  "blockquote", "caption", "center",  "dd",     "details", "dialog",
      "dir",     "div",     "dl",     "dt",         "fieldset", "figcaption", "figure", "footer",  "form",
      "h1",      "h2",      "h3",     "h4",         "h5",      "h6",      "header", "hgroup",  "hr",
      "legend",  "li",      "main",   "menu",       "nav",     "ol",      "option", "p",       "pre",
      "section", "summary", "table",  "tbody",      "tfoot",   "thead",   "tr",     "ul",      "br"};
  return std::find(std::begin(kBlocks), std::end(kBlocks), tag) != std::end(kBlocks);
}

std::vector<std::string> RenderedLines(Node node) {
  if (!node) return {};
  if (node.is_text()) {
    std::string line = node.Text();
    if (line.empty()) return {};
    return {std::move(line)};
  }
  // A skipped element asked for itself (a rule selecting <title> or a
  // <script>) gives its own text; only skipped descendants are dropped.
  LineBuilder out;
  Node n = node;
  while (true) {
    // Enter n.
    bool descend = false;
    if (n.is_text()) {
      out.Text(n.RawText());
    } else if (n.is_element() && (n == node || !IsSkippedTag(n.tag()))) {
      Boundary(n, &out);
      descend = true;
    }
    if (descend && n.first_child()) {
      n = n.first_child();
      continue;
    }
    // Leave n and the ancestors whose last child it closes.
    while (true) {
      if (n.is_element() && (n == node || !IsSkippedTag(n.tag()))) Boundary(n, &out);
      if (n == node) return out.Finish();
      if (Node next = n.next_sibling()) {
        n = next;
        break;
      }
      n = n.parent();
    }
  }
}

}  // namespace vertex::html
