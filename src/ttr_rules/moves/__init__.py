"""The action families, one module each (``draw``, ``claim``, ``tickets``, ``stations``, and the
forced pass in ``turn``). Each holds its legal-move generator and, per action class, a check
``problem(state, action)`` and a transition ``apply(draft, action)`` (its ``ACTIONS`` table);
``draft`` is the next state under construction, ``turn`` the end of an action and of a turn,
``common`` what the families share."""
