"""Markdown tables of the seeds sections: numbers to text, missing values
as "n/a", ratios as "12.3x"."""


def fmt(value, digits=2):
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    return f"{value:.{digits}f}"


def ratio(numerator, denominator):
    """numerator / denominator as a speedup ("4.2x"); n/a when either is missing or zero."""
    if numerator is None or denominator is None or denominator == 0 or numerator == 0:
        return "n/a"
    return f"{numerator / denominator:.{1 if numerator / denominator >= 10 else 2}f}x"


def table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join("n/a" if c is None else str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
