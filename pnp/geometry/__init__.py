"""Pure geometry in points: imposition of cards on sheets, tiling of boards, packing of tokens,
die nets and booklet page order. No drawing (no reportlab) and no game model: every function
here takes sizes and returns positions, so it is tested without a PDF."""
