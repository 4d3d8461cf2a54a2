"""Puzzles listen to the analysis: a game analysed is searched for positions worth a puzzle."""

from django.dispatch import receiver

from analysis.signals import analysis_done

from .finding import puzzles_from_analysis


@receiver(analysis_done, dispatch_uid="puzzles.find_in_analysis")
def analysis_searched_for_puzzles(sender, analysis, **kwargs):
    puzzles_from_analysis(analysis)
