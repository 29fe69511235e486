/* The sentence splitter's per-language data (split.h): which characters
 * end a sentence, and the words after which a period does not. A prefix is
 * listed when it is far more often an abbreviation than a sentence's last
 * word; words that end sentences as often as not ("etc.", "Inc.") are left
 * out, and the lowercase rule keeps "etc. and" together anyway. Single
 * capitals and dotted abbreviations ("e.g.", "z.B.") need no entry.
 * To add a language: one more entry below. */
#include <string.h>

#include "split.h"

#define STANDARD_TERMINATORS ".!?\xe2\x80\xa6"   /* . ! ? … */

static const text_split_lang langs[] = {
	{
		.code = "en",
		.terminators = STANDARD_TERMINATORS,
		.placeholder = "something",
		.prefixes = "\n"
			/* titles and ranks */
			"Mr\nMrs\nMs\nMessrs\nMmes\nMx\nDr\nDrs\nProf\nRev\nHon\nSt\nSr\nJr\nSen\nRep\nGov\nGen\n"
			"Col\nLt\nCapt\nCmdr\nSgt\nMaj\nAdm\nBrig\nCpl\nPvt\nSupt\nInsp\nMsgr\nPres\nAtty\nMt\n"
			/* months */
			"Jan\nFeb\nMar\nApr\nJun\nJul\nAug\nSep\nSept\nOct\nNov\nDec\n"
			/* Latin and other in-sentence abbreviations */
			"vs\nv\ncf\nviz\nal\napprox\nca\nesp\nincl\nresp\nDept\nUniv\nAssn\nBros\nAve\nBlvd\n"
			"e.g\ni.e\n"
			/* company suffixes: before a sentence starter they still end one */
			"Co\nCorp\nInc\nLtd\n",
		.numeric_prefixes = "\n"
			"No\nNos\nno\nnos\nNr\nArt\nart\np\npp\nVol\nvol\nVols\nCh\nch\nChap\nSec\nsec\nFig\nfig\nFigs\n"
			"Eq\nTab\nPt\nft\nyd\nmi\noz\nlb\nlbs\nsq\nhr\nhrs\nmin\nmins\nsecs\nOp\n",
		.starters = "\n"
			"The\nA\nAn\nThis\nThat\nThese\nThose\nThere\nHe\nShe\nIt\nWe\nThey\nI\nYou\n"
			"His\nHer\nIts\nOur\nTheir\nMy\nYour\nBut\nAnd\nSo\nThen\nHowever\nAlso\nEveryone\n"
			"Everybody\nNobody\nSome\nMost\nMany\nAll\nWhat\nWhen\nWhere\nWhy\nHow\nIf\n"
			"In\nOn\nAt\nBy\nFor\nFrom\nWith\nAfter\nBefore\nDuring\nSince\nUntil\nToday\n"
			"Yesterday\nTomorrow\nNow\nLater\nMeanwhile\n",
		.unmarked_starters = "\nA\nAn\nThe\nTwo\nThree\nFour\nFive\nSeveral\n",
		.unmarked_not_before = "\n"
			"and\nor\nnor\nbut\nto\nat\nin\non\nof\nfor\nwith\nfrom\nby\nas\nif\nthen\nthan\nwhen\n"
			"is\nare\nwas\nwere\nbe\nbeen\nhas\nhave\nhad\nwill\nwould\ncan\ncould\nshould\nmay\n"
			"might\nmust\nshall\ndoes\ndid\nnot\nthat\nwhich\nwho\nwhose\nthe\na\nan\nto\n",
	},
	{
		.code = "de",
		.terminators = STANDARD_TERMINATORS,
		.placeholder = "etwas",
		.prefixes = "\n"
			"Hr\nHrn\nFr\nFrl\nDr\nDres\nProf\nDipl\nIng\nMag\nSt\nPfr\ngeb\ngest\nverh\nverw\n"
			"Jan\nFeb\nMrz\nApr\nJun\nJul\nAug\nSep\nSept\nOkt\nNov\nDez\n"
			"bzw\nca\nevtl\nggf\nvgl\nsog\ninkl\nzzgl\nexkl\nallg\nbes\nbzgl\neigtl\nentspr\n"
			"Jh\nJhd\nJhdt\nMio\nMrd\nStr\nTel\nAbt\nAnm\nAbb\nHrsg\nNachf\nz\nu\nd\na\n"
			"med\nrer\nnat\nphil\njur\nhabil\ndent\nvet\noec\nMin\nStd\nSek\n"
			"einschl\nausschl\nzzt\ngem\nlt\nTsd\nCo\nz.B\nd.h\nu.a\nz.T\nu.U\n",
		.numeric_prefixes = "\n"
			"Nr\nS\nAbs\nArt\nBd\nKap\nZiff\nFig\nTab\nGl\nAufl\nJg\nHeft\nBl\n-str\n",
		.starters = "\n"
			"Der\nDie\nDas\nDies\nDiese\nDieser\nEin\nEine\nEr\nSie\nEs\nWir\nIch\nIhr\nMan\n"
			"Dann\nAber\nUnd\nSo\nDoch\nAuch\nDeshalb\nDaher\nDanach\nJetzt\nHeute\nWas\nWann\n"
			"Wie\nWarum\nWo\nWenn\nAlle\nNiemand\n",
		.unmarked_starters = "\nEin\nEine\nZwei\nDrei\nVier\nFünf\nMehrere\nEinige\n",
		.unmarked_not_before = "\nund\noder\naber\nzu\nist\nsind\nwar\nwaren\n",
		.ordinals = 1,
		.nouns_capitalised = 1,
	},
	{
		.code = "fr",
		.terminators = STANDARD_TERMINATORS,
		.placeholder = "cela",
		.prefixes = "\n"
			"M\nMM\nMme\nMmes\nMlle\nMlles\nDr\nPr\nProf\nMe\nMgr\nSt\nSte\nSts\nStes\n"
			"janv\nfévr\navr\njuil\nsept\noct\nnov\ndéc\n"
			"av\nbd\ncf\nenv\nex\nhab\nboul\nvol\n",
		.numeric_prefixes = "\n"
			"n\nno\nN\nNo\np\npp\nart\nArt\nchap\nfig\nFig\ntab\néd\n",
	},
	{
		.code = "es",
		.terminators = STANDARD_TERMINATORS,
		.placeholder = "algo",
		.prefixes = "\n"
			"Sr\nSra\nSres\nSrta\nDr\nDra\nDres\nD\nDña\nUd\nUds\nVd\nVds\nProf\nLic\nIng\nArq\nSto\nSta\n"
			"ene\nfeb\nabr\njun\njul\nago\nsept\noct\nnov\ndic\n"
			"aprox\nAvda\nAv\nApdo\nDpto\nadj\nadv\n",
		.numeric_prefixes = "\n"
			"núm\nNúm\nn\nN\nNo\np\npp\npág\npágs\nart\nArt\ncap\nfig\nvol\nt\n",
	},
	{
		.code = "cs",
		.terminators = STANDARD_TERMINATORS,
		.placeholder = "něco",
		.prefixes = "\n"
			"Ing\nMgr\nBc\nMUDr\nJUDr\nPhDr\nRNDr\nPaedDr\nDr\nProf\nDoc\nprof\ndoc\ning\nsv\n"
			"např\ntj\ntzv\nresp\nmj\npř\nvč\ntzn\nzvl\nstol\nr\nmld\nmil\ntis\n"
			"led\núno\nbře\ndub\nkvě\nčvn\nčvc\nsrp\nzář\nříj\nlis\npro\n",
		.numeric_prefixes = "\n"
			"č\nčís\nstr\ns\nodst\npísm\nobr\ntab\nkap\nroč\n",
		.ordinals = 1,
	},
	{
		/* Greek: ";" is its question mark (and U+037E, which looks the same) */
		.code = "el",
		.terminators = ".!;\xcd\xbe\xe2\x80\xa6",
		.placeholder = "X",
	},
};

static const text_split_lang generic = { .code = "", .terminators = STANDARD_TERMINATORS, .placeholder = "X" };

const text_split_lang *text_split_lang_for(const char *code)
{
	if (code)
		for (size_t i = 0; i < sizeof langs / sizeof *langs; i++)
			if (strcmp(langs[i].code, code) == 0)
				return &langs[i];
	return &generic;
}
