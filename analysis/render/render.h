// Renderers of a computed Comparison. They only format: every number they
// print is already in the Comparison.
#pragma once

#include <string>
#include <string_view>

#include "analysis/compare/compare.h"

namespace schedlab {

// mmtests-style tables, the text people paste into mails: a header naming
// the runs, one table per block, a footer with the test, alpha and failures.
// For people; the layout may change. Ends with a newline.
std::string render_text(const Comparison& c);

// The stable machine-readable form, pretty-printed with a 2-space indent;
// schema in docs/compare-json.md (format_version 1). Ends with a newline.
std::string render_json(const Comparison& c);

// compare --style amd: the form of AMD's scheduler reports on LKML, a line
// per row ("1-groups:   4.22 (0.00 pct)   4.48 (-6.16 pct) *").
std::string render_amd(const Comparison& c);

// compare --format markdown: the same content as render_text, as GitHub /
// GitLab markdown (a pipe table per block, the notes as paragraphs).
std::string render_markdown(const Comparison& c);

// compare --format csv: the long form, one line per sample: run, run_id,
// kernel, variant, pair, workload, block, row, one column per parameter,
// metric, unit, iteration, value. Header line first. Text cells are
// neutralised against spreadsheet formulas unless kRaw (render_csv.cc).
enum class CsvCells { kNeutralised, kRaw };
std::string render_csv(const Comparison& c, CsvCells cells = CsvCells::kNeutralised);
// One text cell of such a CSV (a name, a label): control and bidirectional
// characters escaped reversibly, a would-be formula neutralised (unless
// kRaw), quoted as RFC 4180 says. export --format otava writes its text
// cells through it too.
std::string csv_text_cell(std::string_view raw, CsvCells cells = CsvCells::kNeutralised);

// The names in c that came from a database (runs, variants, pairs, blocks,
// rows, metrics, what differs between the columns) passed through
// terminal_safe (base/text.h), newlines included: for text and markdown,
// before they are padded into columns. The caller also passes the whole
// rendered text through terminal_safe (keeping newlines) for what else the
// manifests hold. JSON and CSV keep the names as stored.
void make_names_terminal_safe(Comparison& c);

// `schedlab stats`: the table of render_text, then per column the interval
// of the centre, the interval of the change and the p-value.
std::string render_stats_text(const Comparison& c);

// `schedlab stats --format json`: a comparison of plain sample files (one
// block, one row) as one flat object per column; schema in
// docs/compare-json.md ("schedlab stats").
std::string render_stats_json(const Comparison& c);

}  // namespace schedlab
