"""The web page: a small app on the Pi that shows what the board sees and lets the player control the game.

Owns: the view model pushed to pages (`view`), the hub between the game and the pages (`hub`), the HTTP server
with server-sent events (`server`), the SVG board diagram (`svg`) and the static page. It decides nothing about
the game: controls become `WebCommand`s that the game loop takes from the hub.
"""
