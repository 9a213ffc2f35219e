"""What every game's table forms post (games/table/): the version the page was rendered at and
a fresh idempotency key, an undo's reason, and whether a results form is a correction."""

from __future__ import annotations

from django import forms


class ActionForm(forms.Form):
    """What every table form posts besides its own fields."""

    version = forms.IntegerField(min_value=0)
    key = forms.CharField(min_length=1, max_length=200)


class UndoForm(ActionForm):
    reason = forms.CharField(max_length=500, required=False, strip=True)


class CorrectionForm(forms.Form):
    """What a results form drawn as a correction (the results recorded, filled in) posts
    besides the sheet: that it is one, and why (optional)."""

    correct = forms.BooleanField(required=False)
    reason = forms.CharField(max_length=500, required=False, strip=True)

    def wanted(self) -> tuple[bool, str]:
        """(is it a correction, its reason)."""
        if not self.is_valid():
            return bool(self.data.get("correct")), ""
        return self.cleaned_data["correct"], self.cleaned_data["reason"]
