/*
 * plot.c - see plot.h.
 */
#include "plot.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plot_add(plot_series *p, const char *label, double value, int is_baseline)
{
    if (p->n >= (int)(sizeof p->labels / sizeof p->labels[0]))
        return;
    p->labels[p->n] = xstrdup(label);
    p->values[p->n] = value;
    p->baseline[p->n] = is_baseline;
    p->n++;
}

void plot_series_free(plot_series *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->labels[i]);
    free(p->title);
    memset(p, 0, sizeof *p);
}

/* Text for SVG: the five characters XML reserves, escaped. */
static void put_text(strbuf *sb, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': sb_puts(sb, "&lt;"); break;
        case '>': sb_puts(sb, "&gt;"); break;
        case '&': sb_puts(sb, "&amp;"); break;
        case '"': sb_puts(sb, "&quot;"); break;
        case '\'': sb_puts(sb, "&apos;"); break;
        default: sb_append(sb, s, 1);
        }
    }
}

enum { WIDTH = 960, LABEL_W = 330, BAR_H = 26, GAP = 8, MARGIN = 20, GROUP_HEAD = 44 };

static double group_max(const plot_series *g)
{
    double max = 0;
    for (int i = 0; i < g->n; i++)
        if (g->values[i] > max)
            max = g->values[i];
    return max;
}

static double baseline_value(const plot_series *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->baseline[i])
            return g->values[i];
    return 0;
}

int plot_write_svg(const char *path, const char *title, const char *subtitle, const plot_series *groups,
                   int ngroups)
{
    int height = MARGIN + 56;
    for (int k = 0; k < ngroups; k++)
        if (groups[k].n)
            height += GROUP_HEAD + groups[k].n * (BAR_H + GAP) + MARGIN;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n",
              WIDTH, height);
    sb_printf(&sb, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height);
    sb_printf(&sb, "<text x=\"%d\" y=\"%d\" font-size=\"18\" font-weight=\"bold\">", MARGIN, MARGIN + 14);
    put_text(&sb, title);
    sb_printf(&sb, "</text>\n<text x=\"%d\" y=\"%d\" fill=\"#555\">", MARGIN, MARGIN + 36);
    put_text(&sb, subtitle);
    sb_puts(&sb, "</text>\n");
    int y = MARGIN + 56;
    int bar_w = WIDTH - LABEL_W - MARGIN - 150;
    for (int k = 0; k < ngroups; k++) {
        const plot_series *g = &groups[k];
        if (!g->n)
            continue;
        double max = group_max(g), base = baseline_value(g);
        sb_printf(&sb, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">", MARGIN, y + 26);
        put_text(&sb, g->title ? g->title : "");
        sb_puts(&sb, "</text>\n");
        y += GROUP_HEAD;
        for (int i = 0; i < g->n; i++) {
            double v = g->values[i];
            int w = max > 0 ? (int)(bar_w * v / max + 0.5) : 0;
            const char *colour = g->baseline[i] ? "#7f7f7f" : "#2b7bba";
            sb_printf(&sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 8, y + BAR_H - 8);
            put_text(&sb, g->labels[i]);
            sb_puts(&sb, "</text>\n");
            if (v > 0) {
                sb_printf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", LABEL_W, y,
                          w < 1 ? 1 : w, BAR_H, colour);
                sb_printf(&sb, "<text x=\"%d\" y=\"%d\">%.0f", LABEL_W + w + 6, y + BAR_H - 8, v);
                if (base > 0 && !g->baseline[i])
                    sb_printf(&sb, " (%.0f%%)", 100 * v / base);
                sb_puts(&sb, "</text>\n");
            } else {
                sb_printf(&sb, "<text x=\"%d\" y=\"%d\" fill=\"#b00\">no figure</text>\n", LABEL_W + 6,
                          y + BAR_H - 8);
            }
            y += BAR_H + GAP;
        }
        y += MARGIN;
    }
    sb_puts(&sb, "</svg>\n");
    int rc = write_file_atomic(path, sb.buf, sb.len);
    sb_free(&sb);
    return rc;
}
