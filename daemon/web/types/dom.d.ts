// For the type check of the pages (tsconfig.web.json): an element the pages find in their own
// markup has a dataset, a tab index and focus, as HTML, SVG and MathML elements all do.
interface Element extends HTMLOrSVGElement {}
