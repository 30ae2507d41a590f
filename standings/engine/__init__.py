"""Pure tiebreaker and standings engines (no Django): exact ``Fraction`` arithmetic."""
