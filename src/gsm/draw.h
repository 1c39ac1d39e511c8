/* draw.h: a GSM workflow model as a picture, laid out by Graphviz (dot) from its shape (shape.h):
 *
 *   stage            a box (a Graphviz cluster) holding its milestones, guards and child stages, named
 *                    in bold; with an instance its fill is its state and its name is followed by it
 *                    (active: green, inactive: grey, completed: blue, not set up: white)
 *   milestone        an ellipse in its stage; with an instance an achieved one is gold, marked "achieved"
 *   call             with an instance, a stage's call (shape.h design note 7) colours its box's border and
 *                    is named under it: calling blue, retrying orange, exhausted red (answered: nothing)
 *   guard            a small diamond with its name, and what it waits for (shape.h design note 6,
 *                    its first 90 bytes) in italics, in the stage it guards; an arrow comes to it from each
 *                    milestone its sentries read (solid: read as achieved; dotted, ending in a bar: read as
 *                    not achieved, drawn without pulling the layout)
 *   alternatives     a dashed arrow "then" from each alternative stage to the one given its turn after it
 *
 * Each drawing is laid out and rendered in a child process, which exits once it has handed the picture
 * back: Graphviz 2.43's dot leaks the virtual nodes and edges it makes for clusters, and HTML-like labels
 * (about 70 KB per drawing of the evaluation model, measured), so a server drawing a page every two
 * seconds would grow without bound; its process-wide state (cgraph's dictionaries, error reporting) is
 * not shared between threads either way, and a Graphviz that crashes or runs away (killed after
 * GSM_DRAW_TIME_LIMIT_MS) costs one drawing, not the caller. gsm_draw may be called from several threads.
 * SVG text is escaped by Graphviz from labels this file writes as escaped HTML-like labels, so no text of
 * a model becomes markup. */
#ifndef LDGSM_GSM_DRAW_H
#define LDGSM_GSM_DRAW_H

#include <stddef.h>

#include "gsm/shape.h"
#include "rdf/buf.h"

enum gsm_draw_format { GSM_DRAW_SVG, GSM_DRAW_PNG, GSM_DRAW_DOT };

#define GSM_DRAW_TIME_LIMIT_MS 10000

/* Appends the picture of shape (it must have its model: shape->has_model) in format to out. Returns 0, or
 * -1 with a message (no model, Graphviz failing, a format its plugins lack). */
int gsm_draw(const gsm_shape *shape, enum gsm_draw_format format, buf *out, char *error, size_t error_len);

/* For other pictures drawn the same way (wsm/wsm_draw.h): build makes the Graphviz graph from user in the
 * drawing child, where it is laid out and rendered as gsm_draw does. */
struct Agraph_s;
typedef struct Agraph_s *(*gsm_draw_build_fn)(const void *user);
int gsm_draw_graph(gsm_draw_build_fn build, const void *user, enum gsm_draw_format format, buf *out, char *error,
                   size_t error_len);
/* Text as the content of an HTML-like label: markup characters escaped, control characters as spaces. */
void gsm_draw_label_text(buf *out, const char *text);
/* Sets object's HTML-like label; label holds its markup (text through gsm_draw_label_text). */
void gsm_draw_set_html_label(struct Agraph_s *g, void *object, buf *label);

#endif
