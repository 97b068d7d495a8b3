"""The range-band panel's parts (games/range_band/web/panel.py is the panel itself): ``common``, the
card (``card``) and the forms read into actions (``read``)."""
