/*
 * plot.h - the performance ladder as a picture: horizontal bars, one group
 * per kind of work, each bar labelled with its figure and its share of the
 * group's baseline. SVG: a text file any browser shows.
 */
#ifndef GPULAB_PLOT_H
#define GPULAB_PLOT_H

typedef struct {
    char *title;            /* "Matrix product, width-4096 (GFLOP/s)" */
    int n;
    char *labels[24];
    double values[24];      /* 0: no figure (failed, or not believed) */
    int baseline[24];       /* this bar is the group's baseline */
    int has_baseline;
} plot_series;

void plot_add(plot_series *p, const char *label, double value, int is_baseline);
void plot_series_free(plot_series *p);

/* Writes the groups as one SVG picture. Returns 0, or -1 with errno set. */
int plot_write_svg(const char *path, const char *title, const char *subtitle, const plot_series *groups,
                   int ngroups);

#endif
