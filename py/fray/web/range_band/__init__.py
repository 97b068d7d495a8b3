"""The range-band panel's parts (web/range_band_panel.py is the panel itself): ``common``, the
card (``card``) and the forms read into actions (``read``)."""
