"""Studio glue shared by app.py and pages/ (streamlit lives here, never in weaver/)."""
